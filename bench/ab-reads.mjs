#!/usr/bin/env node
// bench/ab-writes.mjs on the read scenarios of `npm run bench`, uncached (REST_CACHE=false): two
// builds interleaved, server CPU per request from /proc. Same environment variables.
process.env.SCENARIOS ??=
  'list_default,list_page100,filter_sort,deep_filter_relation,populate_star,deep_populate,find_one,distinct_reads';
await import('./ab-writes.mjs');
