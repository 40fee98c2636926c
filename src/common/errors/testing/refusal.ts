/** What a refused call threw, for specs to match its `code`, `status` and `data`; a call that succeeded gives `{ code: 'no error' }`. */
export function refusal(p: Promise<unknown>): Promise<{ code: string; status: number; data?: unknown }> {
  return p.then(
    () => ({ code: 'no error', status: 0 }),
    (e: { code: string; status: number; data?: unknown }) => e,
  );
}
