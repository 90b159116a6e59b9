import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { componentOf, typeOf, unitSchema } from '../../../test/helpers/unit-schema.js';
import type { ContentType } from '../../core/schema/model.js';
import { checkedSchemaOf } from './schema-fingerprint.js';

const ITEM = 'api::item.item';

describe('checkedSchemaOf', () => {
  it('is the same for the same schema built twice, and for attributes in another order', () => {
    const first = unitSchema();
    const second = unitSchema();
    assert.match(checkedSchemaOf(first, typeOf(first, ITEM)), /^[0-9a-f]{16}$/);
    assert.equal(checkedSchemaOf(first, typeOf(first, ITEM)), checkedSchemaOf(second, typeOf(second, ITEM)));
    const item = typeOf(second, ITEM);
    const reordered: ContentType = {
      ...item,
      attributes: Object.fromEntries(Object.entries(item.attributes).reverse()),
    };
    assert.equal(checkedSchemaOf(second, reordered), checkedSchemaOf(first, typeOf(first, ITEM)));
  });

  it('changes with a rule of an attribute (required, a pattern), an attribute added, i18n, a component used', () => {
    const base = unitSchema();
    const digest = checkedSchemaOf(base, typeOf(base, ITEM));
    const changed = (change: (schema: ReturnType<typeof unitSchema>, item: ContentType) => ContentType) => {
      const schema = unitSchema();
      return checkedSchemaOf(schema, change(schema, typeOf(schema, ITEM)));
    };
    const digests = [
      changed((_, item) => ({
        ...item,
        attributes: { ...item.attributes, note: { ...item.attributes.note!, required: true } },
      })),
      changed((_, item) => {
        const name = item.attributes.name!;
        return { ...item, attributes: { ...item.attributes, name: { ...name, regex: /^[a-z]*$/ } as typeof name } };
      }),
      changed((_, item) => ({
        ...item,
        attributes: { ...item.attributes, extra: { ...item.attributes.note!, name: 'extra', column: 'extra' } },
      })),
      changed((_, item) => ({ ...item, localized: !item.localized })),
      changed((schema, item) => {
        const link = componentOf(schema, 'shared.link');
        link.attributes.url = { ...link.attributes.url!, required: true };
        return item;
      }),
    ];
    for (const other of digests) assert.notEqual(other, digest);
    assert.equal(new Set(digests).size, digests.length);
  });
});
