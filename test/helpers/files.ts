import type { TestServer } from './server.js';
import { createDocumentId } from '../../src/core/documents/document-id.js';

/** A file row written straight through the database layer (the upload API has its own tests). */
export async function insertFile(server: TestServer, name: string): Promise<number> {
  const { db, dialect } = server.vellum.database;
  const now = dialect.encode('datetime', new Date());
  return dialect.insertReturningId(db, 'files', {
    document_id: createDocumentId(),
    name,
    hash: name.replace(/\W/g, '_'),
    ext: '.png',
    mime: 'image/png',
    size: 1.5,
    width: 10,
    height: 10,
    url: `/uploads/${name}`,
    provider: 'local',
    created_at: now,
    updated_at: now,
    published_at: now,
  });
}
