/**
 * Validation of `data` in POST and PUT bodies against a content-type or component: every problem
 * becomes a FieldError with the path of the offending value; the result is a typed input that the
 * write operations apply.
 */
import { parseDate, parseDateTime, parseTime, type Parsed } from '../schema/temporal.js';
import { ValidationError, type FieldError } from '../errors.js';
import type {
  Attribute,
  ComponentAttribute,
  DynamicZoneAttribute,
  MediaAttribute,
  Model,
  RelationAttribute,
  ScalarAttribute,
  ScalarType,
  Schema,
} from '../schema/model.js';
import type { Status } from '../query/types.js';
import { exactIntegerText } from './exact-integers.js';
import { isPlainObject } from '../objects.js';

/** A `before`/`after` anchor: a documentId, or (a number) an entry's numeric id. */
export type Position = { before: string | number } | { after: string | number } | { start: true } | { end: true };

export interface RelationRef {
  /** Empty when the body named the entry by `id`, until the write resolves it. */
  documentId: string;
  /** An entry's numeric id, accepted as Strapi 5 does: the write links that entry's document. */
  id?: number;
  locale?: string;
  status?: Status;
  position?: Position;
  /**
   * The body named the entry by id, so it names that row, in its own locale (Strapi links rows:
   * a connect by id links that locale's version, whatever the writer's). In `disconnect` Strapi
   * looks nothing up for it: it removes that entry's link if there is one and is never an error.
   */
  byId?: true;
}

/** Relation changes; `set` replaces, `connect`/`disconnect` edit. */
export interface RelationInput {
  set?: RelationRef[];
  connect?: RelationRef[];
  disconnect?: RelationRef[];
  /** `options: { strict: false }`: a connect anchor neither linked nor connected puts the item at the end instead of a 400. */
  strict?: false;
}

export interface ComponentItemInput {
  id?: number;
  input: ModelInput;
}

interface ZoneItemInput extends ComponentItemInput {
  component: string;
}

export interface ModelInput {
  scalars: Map<ScalarAttribute, unknown>;
  components: Map<ComponentAttribute, ComponentItemInput | ComponentItemInput[] | null>;
  zones: Map<DynamicZoneAttribute, ZoneItemInput[] | null>;
  relations: Map<RelationAttribute, RelationInput>;
  media: Map<MediaAttribute, number[] | null>;
}

export type Mode = 'create' | 'update';

/**
 * Which rules apply. A draft is work in progress (as in Strapi 5): it skips `required`,
 * `minLength`, `regex`, `min`, the email and uid formats and the item counts of repeatable
 * components and dynamic zones, and still enforces types, `max`, `maxLength` and enumerations.
 * Publishing checks the whole document with every rule.
 */
export interface InputRules {
  draft: boolean;
  /** Top-level attributes a create may leave out: their values come from elsewhere (a new locale takes the shared ones from the others). */
  inherited?: ReadonlySet<string>;
  /**
   * The data is a stored draft read back for publishing: passwords are hashes (not checked), and
   * relations and media are not part of it.
   */
  stored?: boolean;
}

/** Where an object of a body sits: its unknown keys are judged by it (see InputValidator.otherKey). */
type Place = 'root' | 'component' | 'zone';

/** Keys of a document Strapi refuses in a body because they are not writable. */
const NOT_WRITABLE = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'localizations']);
/** Keys of a document a body may carry and that are ignored (the query says status and locale). */
const IGNORED_ROOT_KEYS = new Set(['publishedAt', 'locale']);

/** File ids a body names for a media attribute, with where they are: checked against `files` before writing. */
export interface MediaReference {
  attribute: MediaAttribute;
  ids: number[];
  path: (string | number)[];
}

type Path = (string | number)[];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;
const INT32 = { min: -2147483648, max: 2147483647 };
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
const STRING_COLUMN_LENGTH = 255;
/**
 * How deep a json or blocks value may nest. Serialising (JSON.stringify, when storing and when
 * answering) recurses: a few thousand levels overflow the stack. Real documents nest a few levels.
 */
const MAX_JSON_DEPTH = 100;

/** Whether a JSON value nests deeper than `max` arrays/objects; iterative, so any depth is safe. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** An entry's numeric id: a positive integer, as a number or a string of digits. */
function entryId(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

const STRING_SCHEMAS = new Set<ScalarType>(['string', 'text', 'richtext', 'email', 'uid', 'password', 'enumeration']);
const NUMBER_SCHEMAS = new Set<ScalarType>(['integer', 'float', 'decimal']);

/**
 * Strapi 5.54's words for a required attribute left empty in an entry it publishes: it validates
 * the stored entry, whose empty attributes are null, so yup's type error of the attribute's schema
 * speaks (`title must be a \`string\` type, but the final value was: \`null\`.`; numbers are cast
 * to NaN); "must be defined." where the schema takes null (booleans, dates, big integers, JSON).
 */
function requiredWords(attribute: Attribute, path: Path): string {
  // yup names the value by its path: `part.label`, `parts[0].label`.
  const name = path.map((key, i) => (/^\d+$/.test(String(key)) ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
  const typeError = (type: string, value: string) =>
    `${name} must be a \`${type}\` type, but the final value was: \`${value}\`.`;
  if (attribute.kind === 'scalar' && STRING_SCHEMAS.has(attribute.type)) return typeError('string', 'null');
  if (attribute.kind === 'scalar' && NUMBER_SCHEMAS.has(attribute.type)) return typeError('number', 'NaN');
  if (attribute.kind === 'scalar' && attribute.type === 'blocks') return typeError('array', 'null');
  if (attribute.kind === 'component' && !attribute.repeatable) return typeError('object', 'null');
  return `${name} must be defined.`;
}

class InputValidator {
  readonly errors: FieldError[] = [];
  readonly mediaReferences: MediaReference[] = [];
  /** The key a body may not carry that Strapi would name first (lowest rank, then body order). */
  invalidKey?: { rank: number; key: string; path?: string | null };
  /** The `value` of a missing required attribute's error (see requireMissing). */
  missingValue: null | undefined = null;

  /** An entry of a draft-and-publish type that is published: judged as Strapi judges the stored entry. */
  private get publishing(): boolean {
    return this.missingValue === null && !this.draft;
  }

  constructor(
    readonly schema: Schema,
    readonly rules: InputRules,
  ) {}

  private get draft(): boolean {
    return this.rules.draft;
  }

  fail(path: Path, message: string, value: unknown, name = 'ValidationError'): undefined {
    // Strapi names list positions as strings too: ["blocks", "0", "text"].
    this.errors.push({ path: path.map(String), message, name, value });
    return undefined;
  }

  model(model: Model, data: Record<string, unknown>, mode: Mode, path: Path, place: Place = 'root'): ModelInput {
    const input: ModelInput = {
      scalars: new Map(),
      components: new Map(),
      zones: new Map(),
      relations: new Map(),
      media: new Map(),
    };
    for (const [key, value] of Object.entries(data)) {
      const attribute = Object.hasOwn(model.attributes, key) ? model.attributes[key] : undefined;
      const where = [...path, key];
      if (!attribute) {
        this.otherKey(key, path, place);
        continue;
      }
      switch (attribute.kind) {
        case 'scalar': {
          const exact =
            attribute.type === 'biginteger' && typeof value === 'number' ? exactIntegerText(data, key) : undefined;
          const normalized = this.scalar(attribute, exact ?? value, where);
          if (normalized !== undefined) input.scalars.set(attribute, normalized);
          break;
        }
        case 'component': {
          const items = this.component(attribute, value, mode, where);
          if (items !== undefined) input.components.set(attribute, items);
          break;
        }
        case 'dynamiczone': {
          const items = this.zone(attribute, value, mode, where);
          if (items !== undefined) input.zones.set(attribute, items);
          break;
        }
        case 'relation': {
          const relation = this.relation(attribute, value, where);
          if (relation !== undefined) input.relations.set(attribute, relation);
          break;
        }
        case 'media': {
          const ids = this.media(attribute, value, where);
          if (ids !== undefined) input.media.set(attribute, ids);
          if (ids?.length) this.mediaReferences.push({ attribute, ids, path: where });
          break;
        }
      }
    }
    const inherited = path.length === 0 ? (this.rules.inherited ?? new Set<string>()) : new Set<string>();
    if (mode === 'create' && !this.draft) this.requireMissing(model, data, path, inherited);
    else if (mode === 'create') this.requireMissingLists(model, data, path, inherited);
    return input;
  }

  /**
   * A key that is not an attribute, judged as Strapi 5 does: `id` and `documentId` are refused at
   * the root (a component item may carry its `id`, a zone entry its `__component`), the system
   * fields of a document are not writable, `publishedAt` and `locale` are ignored, anything else
   * is unknown. Its `path` is the attribute path of the object holding it (null at the root).
   */
  private otherKey(key: string, path: Path, place: Place): void {
    if (place === 'root') {
      if (IGNORED_ROOT_KEYS.has(key)) return;
      if (key === 'id' || key === 'documentId') return this.refuseKey(0, key);
      if (NOT_WRITABLE.has(key)) return this.refuseKey(1, key, key);
      return this.refuseKey(2, key, null);
    }
    if (key === 'id' || key === 'documentId' || (place === 'zone' && key === '__component')) return;
    this.refuseKey(2, key, path.filter((part) => typeof part === 'string').join('.'));
  }

  private refuseKey(rank: number, key: string, path?: string | null): void {
    if (!this.invalidKey || rank < this.invalidKey.rank) this.invalidKey = { rank, key, path };
  }

  /** On create, required attributes must be present (scalars with a default or a uid source excepted). */
  private requireMissing(
    model: Model,
    data: Record<string, unknown>,
    path: Path,
    inherited: ReadonlySet<string>,
  ): void {
    for (const attribute of Object.values(model.attributes)) {
      if (!attribute.required || data[attribute.name] !== undefined || inherited.has(attribute.name)) continue;
      // Read back from storage, relations and media are not part of the data (and Strapi does not
      // require them unless `strictRelations` is set).
      if (this.rules.stored && (attribute.kind === 'relation' || attribute.kind === 'media')) continue;
      if (
        attribute.kind === 'scalar' &&
        (attribute.default !== undefined || (attribute.type === 'uid' && attribute.targetField))
      )
        continue;
      // Strapi's error carries `value: null` on a draft-and-publish type (it validates the stored
      // entry it publishes, in the words of a null there) and no `value` on others (it validates the body).
      this.fail(
        [...path, attribute.name],
        this.publishing ? requiredWords(attribute, [...path, attribute.name]) : `${attribute.name} must be defined.`,
        this.missingValue,
      );
    }
  }

  /**
   * A draft skips `required`, but for repeatable components and zones: Strapi 5.54 gives the
   * optional ones an empty list on create and requires the required ones to be present, drafts too.
   */
  private requireMissingLists(
    model: Model,
    data: Record<string, unknown>,
    path: Path,
    inherited: ReadonlySet<string>,
  ): void {
    for (const attribute of Object.values(model.attributes)) {
      const list = attribute.kind === 'dynamiczone' || (attribute.kind === 'component' && attribute.repeatable);
      if (!list || !attribute.required || data[attribute.name] !== undefined || inherited.has(attribute.name)) continue;
      this.fail([...path, attribute.name], `${attribute.name} must be defined.`, undefined);
    }
  }

  /** A repeatable component or a zone is a list: null is refused, with Strapi 5.54's words. */
  private notAList(name: string, path: Path): undefined {
    return this.fail(path, `${name} must be a \`array\` type, but the final value was: \`null\`.`, null);
  }

  scalar(attribute: ScalarAttribute, value: unknown, path: Path): unknown {
    const name = attribute.name;
    if (value === null) {
      if (attribute.required && !this.draft)
        return this.fail(path, this.publishing ? requiredWords(attribute, path) : `${name} must be defined.`, value);
      return null;
    }
    switch (attribute.type) {
      case 'string':
      case 'text':
      case 'richtext':
      case 'email':
      case 'uid':
      case 'password':
      case 'enumeration':
        return this.text(attribute, value, path);
      case 'integer':
      case 'float':
      case 'decimal':
        return this.number(attribute, value, path);
      case 'biginteger': {
        // A JSON number beyond 2^53 arrives as its digits (see exact-integers.ts); any other unsafe
        // number was rounded on its way (by the client or a GraphQL variable) and is refused.
        const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
        if (typeof text !== 'string' || !/^-?\d+$/.test(text))
          return this.fail(path, `${name} must be an integer (as a string or a safe number)`, value);
        const big = BigInt(text);
        if (big < INT64.min || big > INT64.max)
          return this.fail(path, `${name} is out of the 64-bit integer range`, value);
        if (attribute.min !== undefined && !this.draft && big < BigInt(attribute.min))
          return this.fail(path, `${name} must be greater than or equal to ${attribute.min}`, value);
        if (attribute.max !== undefined && big > BigInt(attribute.max))
          return this.fail(path, `${name} must be less than or equal to ${attribute.max}`, value);
        return big.toString();
      }
      case 'boolean':
        // As Strapi: true/false, their texts, and 1/0 as numbers or texts.
        if (typeof value === 'boolean') return value;
        if (value === 'true' || value === 'false') return value === 'true';
        if (value === 1 || value === '1' || value === 0 || value === '0') return Number(value) === 1;
        return this.fail(path, `${name} must be a \`boolean\` type`, value);
      // Dates and times: the parsers Strapi's fields use (schema/temporal.ts), shared with filters.
      case 'date':
        return this.temporal(name, parseDate(value), value, path);
      case 'time':
        return this.temporal(name, parseTime(value), value, path);
      case 'datetime':
      case 'timestamp':
        return this.temporal(name, parseDateTime(value), value, path);
      case 'json':
        // The value is left out of the error: answering it would overflow the stack in turn.
        if (nestsDeeperThan(value, MAX_JSON_DEPTH))
          return this.fail(path, `${name} nests deeper than ${MAX_JSON_DEPTH} levels`, undefined);
        return value;
      case 'blocks':
        if (nestsDeeperThan(value, MAX_JSON_DEPTH))
          return this.fail(path, `${name} nests deeper than ${MAX_JSON_DEPTH} levels`, undefined);
        return this.blocks(attribute, value, path);
    }
  }

  private temporal<T>(name: string, parsed: Parsed<T>, value: unknown, path: Path): unknown {
    return 'value' in parsed ? parsed.value : this.fail(path, `${name}: ${parsed.error}`, value);
  }

  private text(attribute: ScalarAttribute, value: unknown, path: Path): unknown {
    const name = attribute.name;
    // A password is never repeated in an error: answers are logged, proxied and shown.
    const shown = attribute.type === 'password' ? undefined : value;
    if (typeof value !== 'string') return this.fail(path, `${name} must be a \`string\` type`, shown);
    // PostgreSQL cannot store U+0000 in text; refused on every database so that documents move freely.
    if (value.includes('\u0000')) return this.fail(path, `${name} must not contain the NUL character (U+0000)`, shown);
    // A stored password is its hash: nothing to check but its presence.
    if (attribute.type === 'password' && this.rules.stored) return value;
    const length = [...value].length;
    const isShortColumn = !['text', 'richtext'].includes(attribute.type);
    const final = !this.draft;
    if (isShortColumn && length > STRING_COLUMN_LENGTH)
      return this.fail(path, `${name} must be at most ${STRING_COLUMN_LENGTH} characters`, shown);
    if (final && attribute.minLength !== undefined && length < attribute.minLength)
      return this.fail(path, `${name} must be at least ${attribute.minLength} characters`, shown);
    if (attribute.maxLength !== undefined && length > attribute.maxLength)
      return this.fail(path, `${name} must be at most ${attribute.maxLength} characters`, shown);
    // `required` refuses only null and absence: "" is a value (Strapi 5.54's notNil). The regex
    // then judges it, as Strapi tests "" against the pattern of a required attribute only.
    if (final && attribute.regex && (value !== '' || attribute.required) && !attribute.regex.test(value))
      return this.fail(path, `${name} must match the pattern ${attribute.regex.source}`, shown);
    // Strapi refuses an empty email even when the attribute is optional (null clears it); drafts skip both checks.
    if (final && attribute.type === 'email' && value === '') return this.fail(path, `${name} cannot be empty`, shown);
    if (final && attribute.type === 'email' && !EMAIL.test(value))
      return this.fail(path, `${name} must be a valid email`, shown);
    if (final && attribute.type === 'uid' && !UID.test(value))
      return this.fail(path, `${name} must match the pattern ${UID.source}`, shown);
    if (attribute.type === 'enumeration' && !attribute.enum!.includes(value)) {
      // Strapi's validator is `oneOf([...enum, null])`, and yup prints the null as nothing: "a, b, ".
      return this.fail(path, `${name} must be one of the following values: ${attribute.enum!.join(', ')}, `, shown);
    }
    return value;
  }

  private number(attribute: ScalarAttribute, value: unknown, path: Path): unknown {
    const name = attribute.name;
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    // A text that is no number: yup's words, as Strapi answers them (the value is the cast NaN, sent as null).
    if (typeof value === 'string' && Number.isNaN(number)) {
      return this.fail(
        path,
        `${name} must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`${JSON.stringify(value)}\`).`,
        null,
      );
    }
    if (typeof number !== 'number' || !Number.isFinite(number))
      return this.fail(path, `${name} must be a \`number\` type`, value);
    if (attribute.type === 'integer') {
      if (!Number.isInteger(number)) return this.fail(path, `${name} must be an integer`, value);
      if (number < INT32.min || number > INT32.max)
        return this.fail(path, `${name} is out of the integer range`, value);
    }
    if (attribute.type === 'decimal' && Math.abs(number) >= 1e8)
      return this.fail(path, `${name} is out of the decimal range`, value);
    if (attribute.min !== undefined && !this.draft && number < attribute.min)
      return this.fail(path, `${name} must be greater than or equal to ${attribute.min}`, value);
    if (attribute.max !== undefined && number > attribute.max)
      return this.fail(path, `${name} must be less than or equal to ${attribute.max}`, value);
    return number;
  }

  private blocks(attribute: ScalarAttribute, value: unknown, path: Path): unknown {
    if (!Array.isArray(value)) return this.fail(path, `${attribute.name} must be an array of blocks`, value);
    for (const [index, block] of value.entries()) {
      if (!isPlainObject(block) || typeof block.type !== 'string') {
        return this.fail([...path, index], `${attribute.name} blocks must be objects with a string \`type\``, block);
      }
      if (block.children !== undefined && !Array.isArray(block.children)) {
        return this.fail(
          [...path, index, 'children'],
          `${attribute.name} block children must be an array`,
          block.children,
        );
      }
    }
    return value;
  }

  private componentItem(
    uid: string,
    value: unknown,
    mode: Mode,
    path: Path,
    place: Place,
  ): ComponentItemInput | undefined {
    if (!isPlainObject(value)) return this.fail(path, 'must be an object', value);
    const component = this.schema.components.get(uid)!;
    const id = value.id;
    if (id !== undefined && id !== null && !(typeof id === 'number' && Number.isInteger(id) && id > 0)) {
      return this.fail([...path, 'id'], 'id must be a positive integer', id);
    }
    // An item without an id is new: its required fields apply as on create.
    const itemMode: Mode = typeof id === 'number' ? mode : 'create';
    return { id: typeof id === 'number' ? id : undefined, input: this.model(component, value, itemMode, path, place) };
  }

  /**
   * Item counts of a repeatable component or a zone, as Strapi checks them: not on drafts, and
   * `min` only when the attribute is required or the list is not empty.
   */
  private countFails(attribute: ComponentAttribute | DynamicZoneAttribute, value: unknown[], path: Path): boolean {
    if (this.draft) return false;
    if (attribute.min !== undefined && value.length < attribute.min && (attribute.required || value.length > 0)) {
      this.fail(path, `${attribute.name} must have at least ${attribute.min} items`, value);
      return true;
    }
    if (attribute.max !== undefined && value.length > attribute.max) {
      this.fail(path, `${attribute.name} must have at most ${attribute.max} items`, value);
      return true;
    }
    return false;
  }

  private component(attribute: ComponentAttribute, value: unknown, mode: Mode, path: Path) {
    if (value === null && attribute.repeatable) return this.notAList(attribute.name, path);
    if (value === null) {
      if (attribute.required && !this.draft)
        return this.fail(
          path,
          this.publishing ? requiredWords(attribute, path) : `${attribute.name} must be defined.`,
          value,
        );
      return null;
    }
    if (!attribute.repeatable) return this.componentItem(attribute.component, value, mode, path, 'component');
    if (!Array.isArray(value)) return this.fail(path, `${attribute.name} must be an array`, value);
    if (this.countFails(attribute, value, path)) return undefined;
    const items: ComponentItemInput[] = [];
    value.forEach((item, index) => {
      const parsed = this.componentItem(attribute.component, item, mode, [...path, index], 'component');
      if (parsed) items.push(parsed);
    });
    return items;
  }

  private zone(
    attribute: DynamicZoneAttribute,
    value: unknown,
    mode: Mode,
    path: Path,
  ): ZoneItemInput[] | null | undefined {
    if (value === null) return this.notAList(attribute.name, path);
    if (!Array.isArray(value)) return this.fail(path, `${attribute.name} must be an array`, value);
    if (this.countFails(attribute, value, path)) return undefined;
    const items: ZoneItemInput[] = [];
    value.forEach((item, index) => {
      const where = [...path, index];
      if (!isPlainObject(item)) return this.fail(where, 'must be an object', item);
      const component = item.__component;
      if (typeof component !== 'string' || !attribute.components.includes(component)) {
        return this.fail(
          [...where, '__component'],
          `__component must be one of: ${attribute.components.join(', ')}`,
          component,
        );
      }
      const parsed = this.componentItem(component, item, mode, where, 'zone');
      if (parsed) items.push({ ...parsed, component });
      return undefined;
    });
    return items;
  }

  private relationRef(value: unknown, path: Path, allowPosition: boolean): RelationRef | undefined {
    const id = entryId(value);
    if (id !== undefined) return { documentId: '', id };
    if (typeof value === 'string' && value.length > 0) return { documentId: value };
    const byDocument = isPlainObject(value) && typeof value.documentId === 'string' && value.documentId !== '';
    // As in Strapi, documentId wins over id when both are given.
    const byId = isPlainObject(value) && !byDocument ? entryId(value.id) : undefined;
    if (!isPlainObject(value) || (!byDocument && byId === undefined)) {
      return this.fail(path, 'must be a documentId, an entry id, or an object with a documentId or an id', value);
    }
    const ref: RelationRef = byDocument ? { documentId: value.documentId as string } : { documentId: '', id: byId };
    for (const key of Object.keys(value)) {
      if (!['documentId', 'locale', 'status', 'position', 'id'].includes(key))
        return this.fail([...path, key], `Invalid key ${key}`, value[key]);
    }
    if (value.locale !== undefined && value.locale !== null) {
      if (typeof value.locale !== 'string')
        return this.fail([...path, 'locale'], 'locale must be a string', value.locale);
      ref.locale = value.locale;
    }
    if (value.status !== undefined) {
      if (value.status !== 'draft' && value.status !== 'published')
        return this.fail([...path, 'status'], 'status must be draft or published', value.status);
      ref.status = value.status;
    }
    if (value.position !== undefined) {
      if (!allowPosition)
        return this.fail([...path, 'position'], 'position is only allowed in connect', value.position);
      const position = value.position;
      const keys = isPlainObject(position) ? Object.keys(position) : [];
      if (!isPlainObject(position) || keys.length !== 1) {
        return this.fail(
          [...path, 'position'],
          'position must have exactly one of before, after, start, end',
          position,
        );
      }
      const key = keys[0]!;
      const anchor = entryId(position[key]) ?? position[key];
      if (
        (key === 'before' || key === 'after') &&
        ((typeof anchor === 'string' && anchor !== '') || typeof anchor === 'number')
      )
        ref.position = { [key]: anchor } as Position;
      else if ((key === 'start' || key === 'end') && position[key] === true) ref.position = { [key]: true } as Position;
      else
        return this.fail(
          [...path, 'position'],
          'position must have exactly one of before, after, start, end',
          position,
        );
    }
    return ref;
  }

  private refs(value: unknown, path: Path, allowPosition: boolean): RelationRef[] | undefined {
    const list = Array.isArray(value) ? value : [value];
    const refs: RelationRef[] = [];
    let ok = true;
    list.forEach((item, index) => {
      const ref = this.relationRef(item, Array.isArray(value) ? [...path, index] : path, allowPosition);
      if (ref) refs.push(ref);
      else ok = false;
    });
    return ok ? refs : undefined;
  }

  private relation(attribute: RelationAttribute, value: unknown, path: Path): RelationInput | undefined {
    if (value === null) return { set: [] };
    if (typeof value === 'string' || typeof value === 'number' || Array.isArray(value)) {
      const set = this.refs(value, path, false);
      return set && { set };
    }
    if (!isPlainObject(value))
      return this.fail(
        path,
        `${attribute.name} must be a documentId, an array or an object with connect, disconnect or set`,
        value,
      );
    if ('documentId' in value || 'id' in value) {
      const set = this.refs(value, path, false);
      return set && { set };
    }
    const keys = Object.keys(value);
    const unknown = keys.filter((key) => !['connect', 'disconnect', 'set', 'options'].includes(key));
    if (unknown.length)
      return this.fail(
        [...path, unknown[0]!],
        `Invalid key ${unknown[0]} (use connect, disconnect or set)`,
        value[unknown[0]!],
      );
    if (value.set !== undefined && (value.connect !== undefined || value.disconnect !== undefined)) {
      return this.fail(path, `${attribute.name}: set cannot be combined with connect or disconnect`, value);
    }
    const input: RelationInput = {};
    if (value.set !== undefined) input.set = value.set === null ? [] : this.refs(value.set, [...path, 'set'], false);
    if (value.connect !== undefined) input.connect = this.refs(value.connect, [...path, 'connect'], true);
    if (value.disconnect !== undefined) input.disconnect = this.refs(value.disconnect, [...path, 'disconnect'], false);
    // Strapi reads only `options.strict`, and only `false` changes anything; other options are ignored.
    if (isPlainObject(value.options) && value.options.strict === false) input.strict = false;
    if (
      (value.set !== undefined && !input.set) ||
      (value.connect !== undefined && !input.connect) ||
      (value.disconnect !== undefined && !input.disconnect)
    ) {
      return undefined;
    }
    // The same target twice in connect: once when both name the same position, refused otherwise
    // (write/relation-order.ts), as Strapi.
    return input;
  }

  private media(attribute: MediaAttribute, value: unknown, path: Path): number[] | null | undefined {
    if (value === null)
      return attribute.required && !this.draft ? this.fail(path, `${attribute.name} must be defined.`, value) : null;
    if (isPlainObject(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
      return this.fail(
        path,
        `${attribute.name}: connect, disconnect and set cannot be used on media attributes; send file ids`,
        value,
      );
    }
    const list = Array.isArray(value) ? value : [value];
    if (!attribute.multiple && Array.isArray(value) && value.length > 1)
      return this.fail(path, `${attribute.name} takes a single file`, value);
    const ids: number[] = [];
    for (const [index, item] of list.entries()) {
      const id = isPlainObject(item) ? item.id : item;
      const number = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
      if (typeof number !== 'number' || !Number.isInteger(number) || number <= 0) {
        return this.fail(Array.isArray(value) ? [...path, index] : path, `${attribute.name} must be file ids`, item);
      }
      ids.push(number);
    }
    // A file named twice is linked once, where it is first named (as Strapi stores it).
    return [...new Set(ids)];
  }
}

/**
 * Validates `data`. A key the body may not carry is a ValidationError of its own, thrown before
 * any value is judged (as Strapi does): `Invalid key <key>[ at <path>]` with `details` `{ key,
 * path, source: 'body' }`.
 */
export function validateInput(
  schema: Schema,
  model: Model,
  data: Record<string, unknown>,
  mode: Mode,
  rules: InputRules = { draft: false },
): { input: ModelInput; errors: FieldError[]; media: MediaReference[] } {
  const validator = new InputValidator(schema, rules);
  validator.missingValue = model.modelType === 'contentType' && model.draftAndPublish ? null : undefined;
  const input = validator.model(model, data, mode, []);
  if (validator.invalidKey) throw invalidKeyError(validator.invalidKey);
  return { input, errors: inSchemaOrder(model, validator.errors), media: validator.mediaReferences };
}

/** Errors in the order of the attributes they name, as Strapi lists them (a body's order is the client's). */
export function inSchemaOrder(model: Model, errors: FieldError[]): FieldError[] {
  const order = Object.keys(model.attributes);
  const rank = (error: FieldError) => order.indexOf(String(error.path[0]));
  return errors
    .map((error, index) => ({ error, index }))
    .sort((a, b) => rank(a.error) - rank(b.error) || a.index - b.index)
    .map(({ error }) => error);
}

function invalidKeyError({ key, path }: { key: string; path?: string | null }): ValidationError {
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  return new ValidationError(message, path === undefined ? { key, source: 'body' } : { key, path, source: 'body' });
}
