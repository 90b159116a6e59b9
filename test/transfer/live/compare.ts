/**
 * Compares two running servers (a Strapi and a Vellum, or two Strapis) on the reads of
 * queries.ts: `node --import tsx test/transfer/live/compare.ts <urlA> <tokenA> <urlB> <tokenB>`.
 * Exits 1 when an answer differs (row ids aside), printing where.
 */
import { isDeepStrictEqual } from 'node:util';
import { BLOG_QUERIES, normalize } from '../queries.js';

const [a, tokenA, b, tokenB] = process.argv.slice(2);
if (!a || !tokenA || !b || !tokenB) throw new Error('usage: compare.ts <urlA> <tokenA> <urlB> <tokenB>');
const get = async (base: string, token: string, path: string) => {
  const response = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, body: normalize(await response.json().catch(() => null)) };
};
let differ = 0;
for (const path of BLOG_QUERIES) {
  const [x, y] = [await get(a, tokenA, path), await get(b, tokenB, path)];
  if (isDeepStrictEqual(x, y)) {
    console.log(`same    ${path}`);
    continue;
  }
  differ++;
  const [sx, sy] = [JSON.stringify(x), JSON.stringify(y)];
  let i = 0;
  while (i < sx.length && sx[i] === sy[i]) i++;
  console.log(
    `DIFFER  ${path}\n  A: ...${sx.slice(Math.max(0, i - 120), i + 200)}\n  B: ...${sy.slice(Math.max(0, i - 120), i + 200)}`,
  );
}
console.log(`${BLOG_QUERIES.length - differ} passed, ${differ} failed`);
process.exitCode = differ ? 1 : 0;
