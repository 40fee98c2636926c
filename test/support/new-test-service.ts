import 'reflect-metadata';
import { PARAMTYPES_METADATA, SELF_DECLARED_DEPS_METADATA } from '@nestjs/common/constants';

/**
 * Builds a service for a unit spec the way Nest would, with an automatic fake for every
 * constructor dependency, so a spec keeps compiling and running when the service gains one:
 *
 *   const { sut, mocks } = newTestService(PagesService, [{ provide: AppConfig, useValue: config }]);
 *   mocks.get(EventReader).getBySlug.mockResolvedValue(event);
 *
 * The dependencies are read from the metadata Nest itself reads: `design:paramtypes` (the
 * parameter types TypeScript emits under emitDecoratorMetadata) and `self:paramtypes` (the
 * tokens of `@Inject(token)`), so what is faked is exactly what the container would inject.
 * A class token gets an object whose every prototype method is a `jest.fn()`; any other token
 * (a string, a symbol, an interface the compiler erased to Object) gets an object that makes a
 * `jest.fn()` for each property asked of it. `provide` puts real values or hand-written fakes in
 * place of chosen tokens (configuration, registries, a fake repository that keeps rows).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyClass<T = unknown> = abstract new (...args: any[]) => T;
export type Token<T = unknown> = AnyClass<T> | string | symbol;

/** A value put in place of one token's fake. */
export interface TestProvider {
  provide: Token;
  useValue: unknown;
}

export interface TestMocks {
  /** The value given for `token` (its fake, or what `provide` put there), typed after the class. */
  get<T>(token: AnyClass<T>): jest.Mocked<T>;
  get<T>(token: string | symbol): jest.Mocked<T>;
  /** Every dependency in constructor order, for a spec that checks none was called. */
  readonly all: readonly unknown[];
}

export interface TestService<S> {
  sut: S;
  mocks: TestMocks;
}

/** Properties a fake must not answer with a function: promise resolution and jest's printing ask for them. */
const NOT_FAKED = new Set<PropertyKey>(['then', 'toJSON', 'asymmetricMatch', 'nodeType', '$$typeof', 'constructor', '@@__IMMUTABLE_ITERABLE__@@']);

/** The tokens a class's constructor asks for, in order, as Nest resolves them. */
export function constructorTokens(type: AnyClass): Token[] {
  const types: unknown[] = Reflect.getMetadata(PARAMTYPES_METADATA, type) ?? [];
  const declared: { index: number; param: Token }[] = Reflect.getMetadata(SELF_DECLARED_DEPS_METADATA, type) ?? [];
  const tokens = types.map((t) => t as Token);
  for (const { index, param } of declared) tokens[index] = param;
  // A parameter with neither a type nor @Inject (a bare interface under isolatedModules) is undefined here.
  if (tokens.length < type.length) throw new Error(`${type.name}: no constructor metadata (is the class @Injectable() and emitDecoratorMetadata on?)`);
  return tokens.map((t, i) => {
    if (t === undefined) throw new Error(`${type.name}: constructor parameter ${i} has no type or token to fake`);
    return t;
  });
}

/** The method names a class and its bases declare, without Object's. */
function methodNames(type: AnyClass): string[] {
  const names = new Set<string>();
  for (let proto = type.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const described = Object.getOwnPropertyDescriptor(proto, name);
      if (name !== 'constructor' && typeof described?.value === 'function') names.add(name);
    }
  }
  return [...names];
}

/** An object answering every property with a `jest.fn()` made on first use (kept, so calls can be checked). */
function anyFake(): Record<PropertyKey, unknown> {
  return new Proxy({} as Record<PropertyKey, unknown>, {
    get(target, key) {
      if (key in target || typeof key === 'symbol' || NOT_FAKED.has(key)) return target[key];
      return (target[key] = jest.fn());
    },
  });
}

/** A fake for one token: every method of a class a `jest.fn()`; anything else answered on demand. */
export function fakeOf(token: Token): unknown {
  if (typeof token !== 'function' || token === Object) return anyFake();
  const fake: Record<string, jest.Mock> = {};
  for (const name of methodNames(token)) fake[name] = jest.fn();
  return fake;
}

function nameOf(token: Token): string {
  return typeof token === 'function' ? token.name : String(token);
}

export function newTestService<C extends AnyClass>(type: C, provide: TestProvider[] = []): TestService<InstanceType<C>> {
  const given = new Map(provide.map((p) => [p.provide, p.useValue]));
  const tokens = constructorTokens(type);
  const unused = [...given.keys()].filter((t) => !tokens.includes(t));
  if (unused.length) throw new Error(`${type.name} does not ask for ${unused.map(nameOf).join(', ')}`);
  const values = new Map<Token, unknown>();
  const args = tokens.map((token) => {
    if (!values.has(token)) values.set(token, given.has(token) ? given.get(token) : fakeOf(token));
    return values.get(token);
  });
  const sut = new (type as unknown as new (...a: unknown[]) => InstanceType<C>)(...args);
  const mocks: TestMocks = {
    get: (token: Token) => {
      if (!values.has(token)) throw new Error(`${type.name} does not ask for ${nameOf(token)}`);
      return values.get(token) as never;
    },
    all: args,
  };
  return { sut, mocks };
}
