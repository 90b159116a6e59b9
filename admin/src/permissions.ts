/**
 * The permissions matrix's model: Strapi's tree of actions (`GET /admin/users-permissions/permissions`,
 * a role's `permissions`) as groups of rows (a content-type, a plugin's controller) and columns
 * (their actions), and back: a role saves the tree, a custom API token the list of actions.
 */

export interface ActionState {
  enabled: boolean;
  policy?: string;
}

/** `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }` */
export type PermissionTree = Record<string, { controllers: Record<string, Record<string, ActionState>> }>;

export interface MatrixRow {
  /** What a person reads: the content-type's display name, or `<plugin> <controller>`. */
  label: string;
  /** What the row shows in its group: the label, or the controller alone under its plugin's heading. */
  shown: string;
  /** The row's actions by column name: `api::article.article.find`. */
  actions: Record<string, string>;
}

export interface MatrixGroup {
  label: string;
  columns: string[];
  rows: MatrixRow[];
}

/** The content API's usual order first; the others after, by name. */
const CRUD = ['find', 'findOne', 'create', 'update', 'delete'];
const columnOrder = (a: string, b: string) => {
  const [x, y] = [CRUD.indexOf(a), CRUD.indexOf(b)];
  if (x >= 0 || y >= 0) return (x < 0 ? CRUD.length : x) - (y < 0 ? CRUD.length : y);
  return a.localeCompare(b);
};

/** Every action the tree names, enabled or not. */
export function actionsOf(tree: PermissionTree): string[] {
  const actions: string[] = [];
  for (const [type, { controllers }] of Object.entries(tree)) {
    for (const [controller, names] of Object.entries(controllers))
      for (const name of Object.keys(names)) actions.push(`${type}.${controller}.${name}`);
  }
  return actions;
}

/** The actions the tree enables. */
export function enabledOf(tree: PermissionTree): Set<string> {
  const enabled = new Set<string>();
  for (const [type, { controllers }] of Object.entries(tree)) {
    for (const [controller, names] of Object.entries(controllers)) {
      for (const [name, state] of Object.entries(names))
        if (state.enabled) enabled.add(`${type}.${controller}.${name}`);
    }
  }
  return enabled;
}

/** The tree of `all` actions, those in `enabled` switched on: what a role's PUT takes. */
export function treeOf(all: PermissionTree, enabled: ReadonlySet<string>): PermissionTree {
  const tree: PermissionTree = {};
  for (const [type, { controllers }] of Object.entries(all)) {
    tree[type] = { controllers: {} };
    for (const [controller, names] of Object.entries(controllers)) {
      tree[type].controllers[controller] = Object.fromEntries(
        Object.keys(names).map((name) => [name, { enabled: enabled.has(`${type}.${controller}.${name}`) }]),
      );
    }
  }
  return tree;
}

/**
 * The matrix: one group of the project's content-types (`api::`), named by `displayName` (uid →
 * name; the uid itself when unknown), then one group per plugin, each with its columns.
 */
export function matrixOf(tree: PermissionTree, displayName: (uid: string) => string | undefined): MatrixGroup[] {
  const groups = new Map<string, MatrixGroup>();
  for (const [type, { controllers }] of Object.entries(tree).sort(([a], [b]) => a.localeCompare(b))) {
    const api = type.startsWith('api::');
    const plugin = type.replace(/^plugin::/, '');
    const key = api ? 'api' : type;
    const group = groups.get(key) ?? { label: api ? 'Content-types' : `Plugin: ${plugin}`, columns: [], rows: [] };
    groups.set(key, group);
    for (const [controller, names] of Object.entries(controllers)) {
      const uid = `${type}.${controller}`;
      const label = api ? (displayName(uid) ?? uid) : `${plugin} ${controller}`;
      const actions = Object.fromEntries(Object.keys(names).map((name) => [name, `${uid}.${name}`]));
      for (const name of Object.keys(names)) if (!group.columns.includes(name)) group.columns.push(name);
      group.rows.push({ label, shown: api ? label : controller, actions });
    }
  }
  const ordered = [...groups.entries()]
    .sort(([a], [b]) => (a === 'api' ? -1 : b === 'api' ? 1 : a.localeCompare(b)))
    .map(([, group]) => group);
  for (const group of ordered) {
    group.columns.sort(columnOrder);
    group.rows.sort((a, b) => a.label.localeCompare(b.label));
  }
  return ordered;
}
