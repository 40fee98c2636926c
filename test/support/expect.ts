// Assertions on API responses shared by the e2e tests (spec errors.md, resources.md §8).
import type { Response } from 'supertest';

/** Status, `code` and `data.status` of an error response, compared in one go for a readable diff. */
export function expectError(res: Response, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.code, dataStatus: res.body?.data?.status }).toEqual({ status, code, dataStatus: status });
}

/** 400 rest_invalid_param reporting exactly these parameters. */
export function expectInvalidParams(res: Response, ...params: string[]): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data?.params ?? {}).sort()).toEqual([...params].sort());
}

/** 400 rest_missing_callback_param listing exactly these names. */
export function expectMissingParams(res: Response, ...params: string[]): void {
  expectError(res, 400, 'rest_missing_callback_param');
  expect(Array.isArray(res.body.data?.params)).toBe(true);
  expect([...res.body.data.params].sort()).toEqual([...params].sort());
}

/** Expected success status plus a readable failure (the error body) when it differs. */
export function expectStatus(res: Response, status: number): void {
  expect({ status: res.status, code: res.status === status ? undefined : res.body?.code }).toEqual({ status, code: undefined });
}

export const idsOf = (items: { id: number }[]): number[] => items.map((item) => item.id);

export const sortedIds = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);
