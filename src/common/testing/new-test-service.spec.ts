import { Inject, Injectable, Optional } from '@nestjs/common';
import { newTestService } from '../../../test/support/new-test-service';

// The unit-spec helper (test/support/new-test-service.ts) builds services from Nest's own
// constructor metadata; these cases pin that it fakes what the container would inject.

@Injectable()
class Base {
  inherited(): string {
    return 'real';
  }
}

@Injectable()
class Store extends Base {
  find(id: number): Promise<string | null> {
    return Promise.resolve(`row ${id}`);
  }
  get size(): number {
    return 1;
  }
}

@Injectable()
class Clock {
  now(): Date {
    return new Date();
  }
}

const SETTINGS = 'SETTINGS';
interface Settings {
  prefix: string;
}

@Injectable()
class Greeter {
  constructor(
    private readonly store: Store,
    @Inject(SETTINGS) private readonly settings: Settings,
    private readonly clock: Clock,
    @Optional() @Inject('HOOKS') private readonly hooks?: { before(): void },
  ) {}

  async greet(id: number): Promise<string> {
    this.hooks?.before();
    const name = (await this.store.find(id)) ?? 'nobody';
    return `${this.settings.prefix} ${name} ${this.store.inherited()}`;
  }

  year(): number {
    return this.clock.now().getUTCFullYear();
  }
}

describe('newTestService', () => {
  it('fakes every method of a class dependency, inherited ones too, with jest.fn()', async () => {
    const { sut, mocks } = newTestService(Greeter, [{ provide: SETTINGS, useValue: { prefix: 'Hello' } }]);
    mocks.get(Store).find.mockResolvedValue('Ada');
    mocks.get(Store).inherited.mockReturnValue('fake');

    await expect(sut.greet(7)).resolves.toBe('Hello Ada fake');
    expect(mocks.get(Store).find).toHaveBeenCalledWith(7);
  });

  it('leaves getters and fields out of a class fake (only methods are faked)', () => {
    const { mocks } = newTestService(Greeter);
    expect(Object.keys(mocks.get(Store)).sort()).toEqual(['find', 'inherited']);
  });

  it('gives an @Inject token an object that answers any method with a kept jest.fn()', async () => {
    const { sut, mocks } = newTestService(Greeter, [{ provide: SETTINGS, useValue: { prefix: 'Hi' } }]);
    mocks.get(Store).find.mockResolvedValue(null);

    await sut.greet(1);
    const hooks = mocks.get<{ before(): void }>('HOOKS');
    expect(hooks.before).toHaveBeenCalledTimes(1);
    expect(hooks.before).toBe(hooks.before);
  });

  it('keeps a token fake awaitable: it has no `then`', async () => {
    const { mocks } = newTestService(Greeter);
    const hooks = mocks.get<object>('HOOKS');
    await expect(Promise.resolve(hooks)).resolves.toBe(hooks);
  });

  it('puts a provided value in place of the fake', () => {
    const clock = { now: () => new Date('2026-05-01T00:00:00Z') };
    const { sut, mocks } = newTestService(Greeter, [{ provide: Clock, useValue: clock }]);
    expect(sut.year()).toBe(2026);
    expect(mocks.get(Clock)).toBe(clock);
  });

  it('lists the dependencies in constructor order', () => {
    const settings = { prefix: '' };
    const { mocks } = newTestService(Greeter, [{ provide: SETTINGS, useValue: settings }]);
    expect(mocks.all).toHaveLength(4);
    expect(mocks.all[0]).toBe(mocks.get(Store));
    expect(mocks.all[1]).toBe(settings);
  });

  it('refuses a provided token the service does not ask for, and a lookup of one', () => {
    expect(() => newTestService(Greeter, [{ provide: 'OTHER', useValue: {} }])).toThrow('Greeter does not ask for OTHER');
    expect(() => newTestService(Greeter).mocks.get(Base)).toThrow('Greeter does not ask for Base');
  });

  it('refuses a class without constructor metadata', () => {
    class Plain {
      constructor(readonly store: Store) {}
    }
    expect(() => newTestService(Plain)).toThrow('Plain: no constructor metadata');
  });
});
