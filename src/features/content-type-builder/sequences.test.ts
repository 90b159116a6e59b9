/**
 * Seeded random sequences of builder batches over a copy of the blog's schema files: types,
 * attributes, relations of every kind (two-sided or not), components and zones created, changed
 * and deleted in orders nobody picked. After every step the files load (as a start loads them),
 * every two-sided relation is written on both sides and agrees, nothing refers to a missing type
 * or component, and a refused batch leaves every file as it was. A failure prints its seed and step. Seeds 107, 132, 140 and 156 found relations of a type to itself left
 * one-sided by an edit (Strapi writes those too); 60 seeds of 80 steps pass.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { projectFiles } from '../../../test/helpers/projects.js';
import { builtInTypes } from '../../app/built-ins.js';
import { ApplicationError } from '../../core/errors.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { readProjectModels, type Json, type ProjectModels } from './models.js';
import { applySchemaChange } from './update.js';
import { parseUpdateSchema } from './validation.js';

const BLOG = fileURLToPath(new URL('../../../examples/blog', import.meta.url));

/** mulberry32: a small seeded generator, so that a failing sequence can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: T[]): T => list[int(list.length)]! };
}

const SCALARS: Json[] = [
  { type: 'string' },
  { type: 'text' },
  { type: 'integer' },
  { type: 'boolean', default: false },
  { type: 'enumeration', enum: ['a', 'b'] },
  { type: 'json' },
  { type: 'datetime' },
  { type: 'media', multiple: true },
];
const TWO_SIDED = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];

/** An attribute as the admin panel sends it back in an update: a relation with its `targetAttribute`. */
function asSent(attribute: Json): Json {
  if (attribute.type !== 'relation') return attribute;
  const { inversedBy, mappedBy, ...rest } = attribute;
  return { ...rest, targetAttribute: inversedBy ?? mappedBy ?? null };
}

function checkInvariants(models: ProjectModels, where: string): void {
  for (const type of models.contentTypes.values()) {
    for (const [name, attribute] of Object.entries(type.schema.attributes)) {
      if (attribute.type === 'relation') {
        const target = models.contentTypes.get(String(attribute.target));
        assert.ok(target, `${where}: ${type.uid}.${name} targets ${String(attribute.target)}, which does not exist`);
        const other = (attribute.inversedBy ?? attribute.mappedBy) as string | undefined;
        if (other) {
          const counterpart = target.schema.attributes[other];
          assert.ok(counterpart, `${where}: ${type.uid}.${name}'s other side ${target.uid}.${other} is missing`);
          assert.equal(counterpart.target, type.uid, `${where}: ${target.uid}.${other} targets ${type.uid}`);
          const back = attribute.inversedBy ? counterpart.mappedBy : counterpart.inversedBy;
          assert.equal(back, name, `${where}: ${target.uid}.${other} names ${type.uid}.${name} back`);
        }
      }
      if (attribute.type === 'component')
        assert.ok(models.components.has(String(attribute.component)), `${where}: ${type.uid}.${name} component`);
      if (attribute.type === 'dynamiczone')
        for (const uid of attribute.components as string[])
          assert.ok(models.components.has(uid), `${where}: ${type.uid}.${name} zone names ${uid}`);
    }
  }
}

async function runSequence(seed: number, steps: number): Promise<{ applied: number; refused: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-ctb-sequence-'));
  cpSync(join(BLOG, 'src'), join(dir, 'src'), { recursive: true });
  const builtIns = builtInTypes(dir);
  const writer = { projectDir: dir, builtIns, checkDatabase: async () => undefined };
  const r = random(seed);
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${++counter}`;
  let applied = 0;
  let refused = 0;
  try {
    for (let step = 0; step < steps; step++) {
      const where = `seed ${seed}, step ${step}`;
      const { schema } = loadProjectSchema(dir, builtIns);
      const models = readProjectModels(dir, schema, builtIns);
      checkInvariants(models, where);
      const apiTypes = [...models.contentTypes.values()].filter((type) => type.uid.startsWith('api::'));
      const collections = apiTypes.filter((type) => (type.schema.kind ?? 'collectionType') === 'collectionType');
      const components = [...models.components.keys()];

      const relation = (kind: 'collectionType' | 'singleType'): Json => {
        const target = r.pick(collections);
        const relations = kind === 'singleType' ? ['oneToOne', 'oneToMany'] : TWO_SIDED;
        const props: Json = { type: 'relation', relation: r.pick(relations), target: target.uid };
        if (r.next() < 0.6) props.targetAttribute = fresh('back');
        return props;
      };
      const attribute = (kind: 'collectionType' | 'singleType'): Json => {
        const roll = r.next();
        if (roll < 0.45 || collections.length === 0) return { ...r.pick(SCALARS) };
        if (roll < 0.75) return relation(kind);
        if (roll < 0.9 && components.length > 0)
          return { type: 'component', component: r.pick(components), repeatable: r.next() < 0.5 };
        if (components.length > 0) return { type: 'dynamiczone', components: [r.pick(components)] };
        return { ...r.pick(SCALARS) };
      };
      const update = (type: (typeof apiTypes)[number], attributes: Json[]) => ({
        action: 'update',
        uid: type.uid,
        kind: type.schema.kind ?? 'collectionType',
        displayName: String(type.schema.info.displayName),
        draftAndPublish: type.schema.options?.draftAndPublish === true,
        pluginOptions: type.schema.pluginOptions,
        attributes,
      });
      const kept = (type: (typeof apiTypes)[number], leaveOut?: string) =>
        Object.entries(type.schema.attributes)
          .filter(([name]) => name !== leaveOut)
          .map(([name, properties]) => ({ action: 'update', name, properties: asSent(properties) }));

      const batch: { contentTypes: Json[]; components: Json[] } = { contentTypes: [], components: [] };
      const roll = r.next();
      if (roll < 0.2) {
        const name = fresh('thing');
        const kind = r.next() < 0.8 ? 'collectionType' : 'singleType';
        batch.contentTypes.push({
          action: 'create',
          uid: `api::${name}.${name}`,
          kind,
          displayName: name,
          singularName: name,
          pluralName: `${name}s`,
          draftAndPublish: r.next() < 0.5,
          attributes: Array.from({ length: 1 + r.int(3) }, () => ({
            action: 'create',
            name: fresh('field'),
            properties: attribute(kind),
          })),
        });
      } else if (roll < 0.45 && apiTypes.length > 0) {
        const type = r.pick(apiTypes);
        const kind = (type.schema.kind ?? 'collectionType') as 'collectionType' | 'singleType';
        batch.contentTypes.push(
          update(type, [...kept(type), { action: 'create', name: fresh('field'), properties: attribute(kind) }]),
        );
      } else if (roll < 0.6 && apiTypes.length > 0) {
        const type = r.pick(apiTypes);
        const names = Object.keys(type.schema.attributes);
        if (names.length === 0) continue;
        const gone = r.pick(names);
        batch.contentTypes.push(update(type, [...kept(type, gone), { action: 'delete', name: gone }]));
      } else if (roll < 0.72 && apiTypes.length > 0) {
        // A relation's other side renamed, added or dropped.
        const type = r.pick(apiTypes);
        const relations = Object.entries(type.schema.attributes).filter(([, a]) => a.type === 'relation');
        if (relations.length === 0) continue;
        const [name, current] = r.pick(relations);
        const sent = asSent(current);
        sent.targetAttribute = r.next() < 0.7 ? fresh('back') : null;
        batch.contentTypes.push(
          update(
            type,
            kept(type).map((item) => (item.name === name ? { ...item, properties: sent } : item)),
          ),
        );
      } else if (roll < 0.82) {
        const name = fresh('part');
        batch.components.push({
          action: 'create',
          uid: `bits.${name}`,
          category: 'bits',
          displayName: name,
          attributes: [
            { action: 'create', name: fresh('field'), properties: { ...r.pick(SCALARS) } },
            ...(collections.length && r.next() < 0.5
              ? [
                  {
                    action: 'create',
                    name: fresh('link'),
                    properties: {
                      type: 'relation',
                      relation: r.pick(['oneToOne', 'oneToMany']),
                      target: r.pick(collections).uid,
                    },
                  },
                ]
              : []),
          ],
        });
      } else if (roll < 0.9 && components.length > 0) {
        batch.components.push({ action: 'delete', uid: r.pick(components) });
      } else if (apiTypes.length > 2) {
        batch.contentTypes.push({ action: 'delete', uid: r.pick(apiTypes).uid });
      } else continue;

      const before = projectFiles(dir, ['src']);
      const parsed = parseUpdateSchema({ data: batch }, models);
      if (!parsed.ok) {
        refused++;
        continue;
      }
      try {
        await applySchemaChange(writer, models, parsed.data);
        applied++;
      } catch (error) {
        if (!(error instanceof ApplicationError)) throw error;
        refused++;
        assert.deepEqual(
          projectFiles(dir, ['src']),
          before,
          `${where}: a refused batch (${error.message}) changed files`,
        );
      }
    }
    const { schema } = loadProjectSchema(dir, builtIns);
    checkInvariants(readProjectModels(dir, schema, builtIns), `seed ${seed}, end`);
    return { applied, refused };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Content-Type Builder: random sequences of batches', () => {
  for (const seed of [1, 42, 107, 132, 140, 156])
    it(`keeps the schema loadable and every relation two-sided (seed ${seed})`, async () => {
      const { applied } = await runSequence(seed, 60);
      assert.ok(applied >= 10, `only ${applied} batches applied: the generator makes too many bad ones`);
    });
});
