// A node:test reporter writing one JSON line per finished test or suite: what test/isolation.mjs
// reads to list a file's tests and to tell which of them ran and passed.
export default async function* jsonReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, nesting, file, details = {}, skip, todo } = event.data;
    yield `${JSON.stringify({
      name,
      nesting,
      file,
      suite: details.type === 'suite',
      passed: event.type === 'test:pass',
      skipped: skip !== undefined && skip !== false,
      skipReason: typeof skip === 'string' ? skip : undefined,
      todo: todo !== undefined && todo !== false,
      error:
        event.type === 'test:fail'
          ? String(details.error?.cause?.message ?? details.error?.message ?? details.error)
          : undefined,
    })}\n`;
  }
}
