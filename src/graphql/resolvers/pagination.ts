/** Pagination of nested lists (relations, repeatable components), already read in full. */
export function paginateList<T>(list: T[] | undefined | null, pagination: unknown, amountLimit: number): T[] {
  if (!list) return [];
  const args = (pagination ?? {}) as { page?: number | null; pageSize?: number | null; start?: number | null; limit?: number | null };
  let start = 0;
  let size = amountLimit;
  if (args.start != null || args.limit != null) {
    start = Math.max(0, args.start ?? 0);
    if (args.limit != null && args.limit >= 0) size = Math.min(args.limit, amountLimit);
  } else if (args.page != null || args.pageSize != null) {
    size = Math.min(Math.max(1, args.pageSize ?? amountLimit), amountLimit);
    start = (Math.max(1, args.page ?? 1) - 1) * size;
  }
  return start === 0 && list.length <= size ? list : list.slice(start, start + size);
}
