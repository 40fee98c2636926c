import type { TermJson } from '../taxonomies';
import { categoryTree, parentChoices } from './term-form-values';

const cat = (id: number, name: string, parent = 0) => ({ id, name, parent }) as TermJson;

describe('categoryTree', () => {
  it('puts each category after its parent, one level deeper, in the order read', () => {
    const rows = categoryTree([cat(1, 'Arts'), cat(3, 'Jazz', 2), cat(2, 'Music'), cat(4, 'Film', 1)]);
    expect(rows.map((r) => [r.name, r.depth])).toEqual([
      ['Arts', 0],
      ['Film', 1],
      ['Music', 0],
      ['Jazz', 1],
    ]);
  });

  it('shows a category whose parent is not among those read at the top level', () => {
    expect(categoryTree([cat(5, 'Orphan', 99)]).map((r) => r.depth)).toEqual([0]);
  });
});

describe('parentChoices', () => {
  it('offers the top level and every category but the one edited and what lies under it', () => {
    const rows = categoryTree([cat(1, 'Arts'), cat(2, 'Music', 1), cat(3, 'Jazz', 2), cat(4, 'Film')]);
    expect(parentChoices(rows, 2).map((c) => c.label)).toEqual(['(none: top level)', 'Arts', 'Film']);
    expect(parentChoices(rows).map((c) => c.label)).toEqual(['(none: top level)', 'Arts', '— Music', '— — Jazz', 'Film']);
  });
});
