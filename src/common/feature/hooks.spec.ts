import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { firstGiven, Hook, hookKind, Hooks } from './hooks';

interface Greeting {
  greet(): string;
}
interface Farewell {
  leave(): string;
}
const GREETINGS = hookKind<Greeting>('greeting');
const FAREWELLS = hookKind<Farewell>('farewell');

@Injectable()
class Greetings extends Hooks<Greeting> {
  constructor(discovery: DiscoveryService) {
    super(discovery, GREETINGS);
  }
}

@Hook(GREETINGS)
@Injectable()
class Hello implements Greeting {
  greet() {
    return 'hello';
  }
}

@Hook(GREETINGS, FAREWELLS)
@Injectable()
class Both implements Greeting, Farewell {
  greet() {
    return 'hi';
  }
  leave() {
    return 'bye';
  }
}

@Hook(GREETINGS)
@Injectable()
class Later implements Greeting {
  greet() {
    return 'later';
  }
}

// @ts-expect-error -- the compiler refuses a hook that does not implement its kind's interface
@Hook(GREETINGS)
@Injectable()
class Mute {}

/** Not a hook: never found. */
@Injectable()
class Plain implements Greeting {
  greet() {
    return 'plain';
  }
}

@Module({ imports: [DiscoveryModule], providers: [Greetings], exports: [Greetings] })
class CoreModule {}

@Module({ providers: [Both, Hello, Plain] })
class FirstModule {}

@Module({ providers: [Later] })
class SecondModule {}

async function greetingsOf(...modules: (typeof FirstModule)[]): Promise<string[]> {
  const app = await Test.createTestingModule({ imports: [CoreModule, ...modules] }).compile();
  try {
    return app
      .get(Greetings)
      .all()
      .map((g) => g.greet());
  } finally {
    await app.close();
  }
}

describe('Hooks: the providers declared @Hook(kind)', () => {
  it('are found in the modules loaded, in the modules’ order and then their providers’ order', async () => {
    expect(await greetingsOf(FirstModule, SecondModule)).toEqual(['hi', 'hello', 'later']);
    expect(await greetingsOf(SecondModule, FirstModule)).toEqual(['later', 'hi', 'hello']);
  });

  it('are checked by the compiler against their kinds’ interfaces', () => {
    expect(typeof Mute).toBe('function');
  });

  it('are not found when their module is not loaded (a feature switched off)', async () => {
    expect(await greetingsOf(SecondModule)).toEqual(['later']);
  });

  it('are found by each kind they declare, and only by those', async () => {
    const app = await Test.createTestingModule({ imports: [CoreModule, FirstModule, SecondModule] }).compile();
    const farewells = new Hooks<Farewell>(app.get(DiscoveryService), FAREWELLS);
    expect(farewells.all().map((f) => f.leave())).toEqual(['bye']);
    await app.close();
  });
});

describe('firstGiven: the merge rule', () => {
  it('keeps the first value given for a key and adds the others in their order', () => {
    expect(firstGiven({ a: 1, b: 2 }, { b: 3, c: 4 })).toEqual({ a: 1, b: 2, c: 4 });
    expect(Object.keys(firstGiven(undefined, { z: 1, y: 2 }))).toEqual(['z', 'y']);
  });
});
