import type { ChangeKinds } from './change-kinds';
import type { Tx } from './tx';

/**
 * The change kinds whose rows name their author in their own `author_id` column: those whose
 * state is read from the row's own columns (ChangeKind.state without `columns`). Their tables
 * come from the features' declarations, so the users' commands name no other feature's table.
 */
function authoredKinds(kinds: ChangeKinds): { type: string; table: string; where: string }[] {
  return kinds
    .all()
    .filter((kind) => kind.state.columns === undefined)
    .map((kind) => ({ type: kind.type, table: kind.state.table, where: kind.state.where ? `${kind.state.where} AND ` : '' }));
}

/** The items `userId` is the author of, kind after kind in the kinds' order (ids ascending within one). */
export async function itemsAuthoredBy(tx: Tx, kinds: ChangeKinds, userId: number): Promise<{ type: string; id: number }[]> {
  const out: { type: string; id: number }[] = [];
  for (const kind of authoredKinds(kinds)) {
    const rows = (await tx.query(`SELECT t.id FROM ${kind.table} t WHERE ${kind.where}t.author_id = ? ORDER BY t.id`, [userId])) as { id: number | string }[];
    for (const row of rows) out.push({ type: kind.type, id: Number(row.id) });
  }
  return out;
}

/** Makes `to` the author of every item `from` is the author of. */
export async function reassignAuthor(tx: Tx, kinds: ChangeKinds, from: number, to: number): Promise<void> {
  for (const kind of authoredKinds(kinds)) {
    await tx.query(`UPDATE ${kind.table} AS t SET author_id = ? WHERE ${kind.where}t.author_id = ?`, [to, from]);
  }
}
