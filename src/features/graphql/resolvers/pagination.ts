/** Where a nested list's page starts and how many items it holds (`pagination` as given). */
export function pageWindow(pagination: unknown, amountLimit: number): { start: number; size: number } {
  const args = (pagination ?? {}) as {
    page?: number | null;
    pageSize?: number | null;
    start?: number | null;
    limit?: number | null;
  };
  let start = 0;
  let size = amountLimit;
  if (args.start != null || args.limit != null) {
    start = Math.max(0, args.start ?? 0);
    if (args.limit != null && args.limit >= 0) size = Math.min(args.limit, amountLimit);
  } else if (args.page != null || args.pageSize != null) {
    size = Math.min(Math.max(1, args.pageSize ?? amountLimit), amountLimit);
    start = (Math.max(1, args.page ?? 1) - 1) * size;
  }
  return { start, size };
}

/**
 * Pagination of nested lists (relations, repeatable components). The document service read at
 * most the first `start + size` items of each (selection.ts asks no more), so this slice is exact.
 */
export function paginateList<T>(list: T[] | undefined | null, pagination: unknown, amountLimit: number): T[] {
  if (!list) return [];
  const { start, size } = pageWindow(pagination, amountLimit);
  return start === 0 && list.length <= size ? list : list.slice(start, start + size);
}
