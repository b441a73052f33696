// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { patchItems, patchPagedItems } from './paged-items';

interface Row {
  id: string;
  n: number;
}

const isTwo = (row: Row) => row.id === '2';
const bump = (row: Row): Row => ({ ...row, n: row.n + 1 });
const drop = () => null;

describe('patchItems', () => {
  it('patches the matching rows of pages that are lists, keeping the other pages and rows as they were', () => {
    const first = [{ id: '1', n: 0 }];
    const second = [{ id: '2', n: 0 }, { id: '3', n: 0 }];
    const data: InfiniteData<Row[], number> = { pages: [first, second], pageParams: [0, 1] };
    const next = patchItems(data, isTwo, bump) as typeof data;
    expect(next.pages).toEqual([[{ id: '1', n: 0 }], [{ id: '2', n: 1 }, { id: '3', n: 0 }]]);
    expect(next.pageParams).toBe(data.pageParams);
    expect(next.pages[0]).toBe(first);
    expect(next.pages[1]?.[1]).toBe(second[1]);
  });

  it('reaches into the field of pages that are objects, keeping their other fields', () => {
    const page = { posts: [{ id: '2', n: 5 }], received: 1, lastId: '2' };
    const data = { pages: [page], pageParams: [null] };
    expect(patchItems(data, isTwo, bump, { pageField: 'posts' })).toEqual({
      pages: [{ posts: [{ id: '2', n: 6 }], received: 1, lastId: '2' }],
      pageParams: [null],
    });
    // Without the field, such a page is not a list: nothing changes.
    expect(patchItems(data, isTwo, bump)).toBe(data);
  });

  it('takes a row out when the patch says null', () => {
    const data = { pages: [[{ id: '1', n: 0 }, { id: '2', n: 0 }]], pageParams: [0] };
    expect(patchItems(data, isTwo, drop)).toEqual({ pages: [[{ id: '1', n: 0 }]], pageParams: [0] });
  });

  it('patches plain lists and single items', () => {
    const list = [{ id: '1', n: 0 }, { id: '2', n: 0 }];
    expect(patchItems(list, isTwo, bump)).toEqual([{ id: '1', n: 0 }, { id: '2', n: 1 }]);
    expect(patchItems(list, isTwo, drop)).toEqual([{ id: '1', n: 0 }]);
    expect(patchItems({ id: '2', n: 3 }, isTwo, bump)).toEqual({ id: '2', n: 4 });
    const other = { id: '1', n: 3 };
    expect(patchItems(other, isTwo, bump)).toBe(other);
  });

  it('leaves a single item the patch would take away, and data without a match, as they were', () => {
    const item = { id: '2', n: 3 };
    expect(patchItems(item, isTwo, drop)).toBe(item);
    const data = { pages: [[{ id: '1', n: 0 }]], pageParams: [0] };
    expect(patchItems(data, isTwo, bump)).toBe(data);
    const list = [{ id: '1', n: 0 }];
    expect(patchItems(list, isTwo, bump)).toBe(list);
    expect(patchItems(undefined, isTwo, bump)).toBeUndefined();
  });
});

describe('patchPagedItems', () => {
  it('changes every cached query under the key, says whether anything changed, and leaves other keys alone', () => {
    const client = new QueryClient();
    client.setQueryData(['rows', 'list', 'a'], { pages: [[{ id: '2', n: 0 }]], pageParams: [0] });
    client.setQueryData(['rows', 'list', 'b'], [{ id: '2', n: 10 }]);
    const elsewhere = [{ id: '2', n: 0 }];
    client.setQueryData(['other'], elsewhere);

    expect(patchPagedItems(client, ['rows', 'list'], isTwo, bump)).toBe(true);
    expect(client.getQueryData(['rows', 'list', 'a'])).toEqual({ pages: [[{ id: '2', n: 1 }]], pageParams: [0] });
    expect(client.getQueryData(['rows', 'list', 'b'])).toEqual([{ id: '2', n: 11 }]);
    expect(client.getQueryData(['other'])).toBe(elsewhere);

    expect(patchPagedItems(client, ['rows', 'list'], (row: Row) => row.id === '9', bump)).toBe(false);
  });
});
