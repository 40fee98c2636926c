export { Seeder, SeedRefusedError } from './seeder';
export type { SeedSummary } from './seeder';
export { SeedRepository } from './seed.repository';
export { Progress } from './progress';
export { checkSeedOptions, resolveSeedOptions } from './seed-plan';
export type { SeedOptions } from './seed-plan';
