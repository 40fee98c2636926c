import type { Type } from '@nestjs/common';

/**
 * The class a route parameter is declared as, where TypeScript cannot say it: in a controller
 * written once for several kinds (a controller factory), a parameter typed by the kind's DTO is
 * emitted as `Object`. Nest's ValidationPipe validates a parameter against this declared class
 * and @nestjs/swagger documents a `@Query()` DTO from it, so both must see the kind's own DTO.
 *
 * A parameter decorator runs after TypeScript has recorded `design:paramtypes` (tsc and swc
 * apply the metadata first), so the class set here is the one Nest reads.
 */
export function DeclaredType(type: Type): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) throw new Error('@DeclaredType() belongs on a parameter of a route method');
    const types = [...((Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined) ?? [])];
    types[index] = type;
    Reflect.defineMetadata('design:paramtypes', types, target, key);
  };
}
