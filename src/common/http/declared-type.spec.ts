import 'reflect-metadata';
import { DeclaredType } from './declared-type';

class ListThingsDto {}
class WriteThingDto {}

/** What a controller written for any kind looks like to TypeScript: its DTO parameters are `Object`. */
function anyKindController(list: new () => object, write: new () => object) {
  class Generic {
    list(@DeclaredType(list) q: object, raw: Record<string, unknown>) {
      return [q, raw];
    }
    update(id: number, @DeclaredType(write) input: object, tag: string) {
      return [id, input, tag];
    }
  }
  return Generic;
}

describe('DeclaredType', () => {
  const Controller = anyKindController(ListThingsDto, WriteThingDto);
  const types = (method: string) => Reflect.getMetadata('design:paramtypes', Controller.prototype, method) as unknown[];

  it('puts the given class where TypeScript recorded Object, and keeps the other parameters', () => {
    expect(types('list')).toEqual([ListThingsDto, Object]);
    expect(types('update')).toEqual([Number, WriteThingDto, String]);
  });

  it('gives each class made by a factory its own classes', () => {
    const Other = anyKindController(WriteThingDto, ListThingsDto);
    expect(Reflect.getMetadata('design:paramtypes', Other.prototype, 'list')).toEqual([WriteThingDto, Object]);
    expect(types('list')).toEqual([ListThingsDto, Object]);
  });
});
