/**
 * Records what a running Strapi answers to the comparison reads (test/transfer/queries.ts), for
 * the CI fixture: `node --import tsx test/transfer/live/record.ts <base URL> <token> <out.json>`.
 */
import { writeFileSync } from 'node:fs';
import { BLOG_QUERIES } from '../queries.js';

const [base, token, out] = process.argv.slice(2);
if (!base || !token || !out) throw new Error('usage: record.ts <base URL> <token> <out.json>');
const answers: Record<string, { status: number; body: unknown }> = {};
for (const path of BLOG_QUERIES) {
  const response = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
  answers[path] = { status: response.status, body: await response.json() };
}
writeFileSync(out, `${JSON.stringify(answers, null, 1)}\n`);
console.log(`${Object.keys(answers).length} answers written to ${out}`);
