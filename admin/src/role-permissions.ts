/**
 * The role editor's model (Strapi's permission matrix): `GET /admin/permissions`'s sections give
 * the rows (content-types, with their fields and locales; plugin and settings actions), a role's
 * permissions (`GET /admin/roles/:id/permissions`) are the draft, each change answers a new draft,
 * and the draft goes back whole to `PUT /admin/roles/:id/permissions`, as Strapi's panel sends it.
 * No React here: unit-tested in the unit tier (role-permissions.test.ts).
 */
import type { AdminPermission } from './admin-permissions.ts';

/** A field (its children: a component's own fields) or a locale of a content-type. */
export interface PropertyNode {
  label: string;
  value: string;
  required?: boolean;
  isDefault?: boolean;
  children?: PropertyNode[];
}

export interface TypeSubject {
  uid: string;
  label: string;
  properties: { label: string; value: string; children: PropertyNode[] }[];
}

export interface TypeAction {
  label: string;
  actionId: string;
  subjects: string[];
  applyToProperties?: string[];
}

export interface TypeSection {
  actions: TypeAction[];
  subjects: TypeSubject[];
}

/** A plugin's action (`plugin` names its group) or a settings action (`category`). */
export interface PlainAction {
  displayName: string;
  plugin?: string;
  category?: string;
  subCategory: string;
  action: string;
}

export interface Condition {
  id: string;
  displayName: string;
  category: string;
}

/** `GET /admin/permissions`'s `data`. */
export interface PermissionSections {
  conditions: Condition[];
  sections: {
    plugins: PlainAction[];
    settings: PlainAction[];
    singleTypes: TypeSection;
    collectionTypes: TypeSection;
  };
}

export type RoleDraft = readonly AdminPermission[];
export type CheckState = 'none' | 'some' | 'all';
export type Property = 'fields' | 'locales';

const propertyOf = (subject: TypeSubject, name: Property) =>
  subject.properties.find((property) => property.value === name)?.children;

/** The field paths of nodes as permissions list them: a component's fields as `seo.metaTitle`. */
export function leafPaths(nodes: readonly PropertyNode[], prefix = ''): string[] {
  return nodes.flatMap((node) =>
    node.children?.length ? leafPaths(node.children, `${prefix}${node.value}.`) : [`${prefix}${node.value}`],
  );
}

/** Whether the action narrows this property on this subject (fields, or locales of a localized type). */
export function applies(action: TypeAction, subject: TypeSubject, property: Property): boolean {
  return (action.applyToProperties ?? []).includes(property) && propertyOf(subject, property) !== undefined;
}

/** Every value the property may take on the subject (field paths, locale codes). */
function allValues(subject: TypeSubject, property: Property): string[] {
  const nodes = propertyOf(subject, property) ?? [];
  return property === 'fields' ? leafPaths(nodes) : nodes.map((node) => node.value);
}

const find = (draft: RoleDraft, action: string, subject: string | null) =>
  draft.find((permission) => permission.action === action && permission.subject === subject);

/**
 * The values a permission holds for a property: every field when it names none (null or left
 * out), a whole component (`seo`) as its fields; every locale for `null`, none when left out (as
 * Strapi's i18n engine reads them).
 */
export function granted(permission: AdminPermission, subject: TypeSubject, property: Property): Set<string> {
  const all = allValues(subject, property);
  const listed = permission.properties[property];
  if (property === 'locales') return new Set(listed === null ? all : (listed ?? []));
  if (listed === undefined || listed === null) return new Set(all);
  const out = new Set<string>();
  for (const path of listed) {
    const under = all.filter((leaf) => leaf === path || leaf.startsWith(`${path}.`));
    // A field the tree no longer has (a removed attribute) is kept as it is.
    for (const leaf of under.length ? under : [path]) out.add(leaf);
  }
  return out;
}

/** Whether the permission covers every value of each property it narrows. */
function complete(permission: AdminPermission, action: TypeAction, subject: TypeSubject): boolean {
  return (['fields', 'locales'] as const).every((property) => {
    if (!applies(action, subject, property)) return true;
    const values = granted(permission, subject, property);
    return allValues(subject, property).every((value) => values.has(value));
  });
}

/** A matrix cell: the action on the content-type not granted, granted on some fields or locales, or on all. */
export function cellState(draft: RoleDraft, action: TypeAction, subject: TypeSubject): CheckState {
  const permission = find(draft, action.actionId, subject.uid);
  if (!permission) return 'none';
  return complete(permission, action, subject) ? 'all' : 'some';
}

/** A row's "every action" box: from its cells. */
export function rowState(draft: RoleDraft, section: TypeSection, subject: TypeSubject): CheckState {
  const states = actionsOn(section, subject).map((action) => cellState(draft, action, subject));
  if (states.length && states.every((state) => state === 'all')) return 'all';
  return states.some((state) => state !== 'none') ? 'some' : 'none';
}

/** The section's actions that apply to the subject. */
export function actionsOn(section: TypeSection, subject: TypeSubject): TypeAction[] {
  return section.actions.filter((action) => action.subjects.includes(subject.uid));
}

const replace = (draft: RoleDraft, action: string, subject: string | null, next: AdminPermission | undefined) => {
  const index = draft.findIndex((permission) => permission.action === action && permission.subject === subject);
  if (index < 0) return next ? [...draft, next] : draft;
  return next ? draft.map((permission, i) => (i === index ? next : permission)) : draft.filter((_, i) => i !== index);
};

/** The properties of a new permission (or one granted again whole): every field and locale. */
function fullProperties(action: TypeAction, subject: TypeSubject): AdminPermission['properties'] {
  const properties: AdminPermission['properties'] = {};
  for (const property of ['fields', 'locales'] as const)
    if (applies(action, subject, property)) properties[property] = allValues(subject, property);
  return properties;
}

/** Grants the action on the content-type with every field and locale (its conditions kept), or takes it back. */
export function setCell(draft: RoleDraft, action: TypeAction, subject: TypeSubject, on: boolean): RoleDraft {
  const current = find(draft, action.actionId, subject.uid);
  if (!on) return replace(draft, action.actionId, subject.uid, undefined);
  return replace(draft, action.actionId, subject.uid, {
    action: action.actionId,
    actionParameters: current?.actionParameters ?? {},
    subject: subject.uid,
    properties: fullProperties(action, subject),
    conditions: current?.conditions ?? [],
  });
}

/** Every action of a row on or off. */
export function setRow(draft: RoleDraft, section: TypeSection, subject: TypeSubject, on: boolean): RoleDraft {
  return actionsOn(section, subject).reduce((next, action) => setCell(next, action, subject, on), draft);
}

/** A field (a leaf path, or a component's: every field under it) or a locale's state for the action. */
export function valueState(
  draft: RoleDraft,
  action: TypeAction,
  subject: TypeSubject,
  property: Property,
  value: string,
): CheckState {
  const permission = find(draft, action.actionId, subject.uid);
  if (!permission) return 'none';
  const values = granted(permission, subject, property);
  const wanted =
    property === 'fields'
      ? allValues(subject, property).filter((leaf) => leaf === value || leaf.startsWith(`${value}.`))
      : [value];
  const on = wanted.filter((leaf) => values.has(leaf)).length;
  return on === 0 ? 'none' : on === wanted.length ? 'all' : 'some';
}

/**
 * Grants or takes back a field (a component's: each field under it) or a locale for the action. A
 * permission made here holds every value of its other property; one left with no value of any
 * property it narrows goes, as Strapi's panel sends none for it.
 */
export function setValue(
  draft: RoleDraft,
  action: TypeAction,
  subject: TypeSubject,
  property: Property,
  value: string,
  on: boolean,
): RoleDraft {
  const current = find(draft, action.actionId, subject.uid);
  if (!current && !on) return draft;
  const base: AdminPermission = current ?? {
    action: action.actionId,
    actionParameters: {},
    subject: subject.uid,
    properties: { ...fullProperties(action, subject), [property]: [] },
    conditions: [],
  };
  const all = allValues(subject, property);
  const values = granted(base, subject, property);
  const touched =
    property === 'fields' ? all.filter((leaf) => leaf === value || leaf.startsWith(`${value}.`)) : [value];
  for (const item of touched) {
    if (on) values.add(item);
    else values.delete(item);
  }
  // In the order of the tree (what Strapi sends), then any the tree no longer has.
  const ordered = [...all.filter((item) => values.has(item)), ...[...values].filter((item) => !all.includes(item))];
  const next: AdminPermission = { ...base, properties: { ...base.properties, [property]: ordered } };
  const narrowed = (['fields', 'locales'] as const).filter((name) => applies(action, subject, name));
  const empty = narrowed.every((name) => granted(next, subject, name).size === 0);
  return replace(draft, action.actionId, subject.uid, empty ? undefined : next);
}

/** Whether the permission of the action (on the subject, or a plain action's) holds the condition. */
export function hasCondition(draft: RoleDraft, action: string, subject: string | null, condition: string): boolean {
  return find(draft, action, subject)?.conditions.includes(condition) ?? false;
}

/** Adds or removes a condition on a granted permission (nothing when it is not granted). */
export function setCondition(
  draft: RoleDraft,
  action: string,
  subject: string | null,
  condition: string,
  on: boolean,
): RoleDraft {
  const current = find(draft, action, subject);
  if (!current) return draft;
  const conditions = current.conditions.filter((item) => item !== condition);
  return replace(draft, action, subject, { ...current, conditions: on ? [...conditions, condition] : conditions });
}

/** Whether a plugin or settings action is granted. */
export function isGranted(draft: RoleDraft, action: string): boolean {
  return find(draft, action, null) !== undefined;
}

/** Grants a plugin or settings action (its conditions kept when it was), or takes it back. */
export function setGranted(draft: RoleDraft, action: string, on: boolean): RoleDraft {
  const current = find(draft, action, null);
  if (!on) return replace(draft, action, null, undefined);
  return current ? draft : [...draft, { action, actionParameters: {}, subject: null, properties: {}, conditions: [] }];
}

export interface ActionGroup {
  name: string;
  subCategories: { name: string; actions: PlainAction[] }[];
}

/** Plugin or settings actions by their plugin (or category), then sub-category, in the API's order. */
export function groupActions(actions: readonly PlainAction[]): ActionGroup[] {
  const groups: ActionGroup[] = [];
  for (const action of actions) {
    const name = action.plugin ?? action.category ?? '';
    let group = groups.find((candidate) => candidate.name === name);
    if (!group) groups.push((group = { name, subCategories: [] }));
    let sub = group.subCategories.find((candidate) => candidate.name === action.subCategory);
    if (!sub) group.subCategories.push((sub = { name: action.subCategory, actions: [] }));
    sub.actions.push(action);
  }
  return groups;
}

/**
 * The body of `PUT /admin/roles/:id/permissions`: the draft whole, without ids, leaving out
 * permissions the sections no longer offer (a content-type removed since), which the API refuses.
 */
export function permissionsBody(draft: RoleDraft, sections: PermissionSections): { permissions: AdminPermission[] } {
  const { plugins, settings, singleTypes, collectionTypes } = sections.sections;
  const plain = new Set([...plugins, ...settings].map((item) => item.action));
  const subjects = new Map<string, Set<string>>();
  for (const action of [...collectionTypes.actions, ...singleTypes.actions]) {
    const set = subjects.get(action.actionId) ?? new Set<string>();
    for (const subject of action.subjects) set.add(subject);
    subjects.set(action.actionId, set);
  }
  const offered = (permission: AdminPermission) =>
    permission.subject === null
      ? plain.has(permission.action)
      : subjects.get(permission.action)?.has(permission.subject);
  return {
    permissions: draft.filter(offered).map(({ action, actionParameters, subject, properties, conditions }) => ({
      action,
      actionParameters: actionParameters ?? {},
      subject,
      properties,
      conditions,
    })),
  };
}
