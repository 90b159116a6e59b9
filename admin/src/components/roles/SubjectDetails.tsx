import { Checkbox, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  actionsOn,
  applies,
  hasCondition,
  setCondition,
  setValue,
  valueState,
  type Condition,
  type PropertyNode,
  type RoleDraft,
  type TypeAction,
  type TypeSection,
  type TypeSubject,
} from '../../role-permissions.ts';
import { StateCheckbox } from './checks.tsx';

interface DetailsProps {
  /** The conditions a permission may hold (`GET /admin/permissions`'s). */
  conditions: readonly Condition[];
  /** The content-type's name as the matrix shows it ("Article"). */
  name: string;
  section: TypeSection;
  subject: TypeSubject;
  draft: RoleDraft;
  onChange: (draft: RoleDraft) => void;
}

/** Rows of fields, a component's own fields below it (indented), a box per action that narrows fields. */
function FieldRows({
  nodes,
  prefix,
  depth,
  actions,
  ...props
}: DetailsProps & { nodes: PropertyNode[]; prefix: string; depth: number; actions: TypeAction[] }) {
  return (
    <>
      {nodes.map((node) => {
        const path = `${prefix}${node.value}`;
        return [
          <Table.Tr key={path}>
            <Table.Th scope="row" fw={node.children?.length ? 700 : 400} pl={12 + depth * 20}>
              {node.label}
              {node.required ? ' *' : ''}
            </Table.Th>
            {actions.map((action) => (
              <Table.Td key={action.actionId}>
                <StateCheckbox
                  label={`${props.name} ${path}: ${action.label}`}
                  state={valueState(props.draft, action, props.subject, 'fields', path)}
                  onChange={(on) => props.onChange(setValue(props.draft, action, props.subject, 'fields', path, on))}
                />
              </Table.Td>
            ))}
          </Table.Tr>,
          node.children?.length ? (
            <FieldRows
              key={`${path}.`}
              {...props}
              nodes={node.children}
              prefix={`${path}.`}
              depth={depth + 1}
              actions={actions}
            />
          ) : null,
        ];
      })}
    </>
  );
}

/** A property's table: its values as rows × the actions that narrow it. */
function PropertyTable({ label, actions, children }: { label: string; actions: TypeAction[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={160 + 90 * actions.length}>
      <Table withTableBorder striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{label}</Table.Th>
            {actions.map((action) => (
              <Table.Th key={action.actionId}>{action.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A content-type's row opened: which fields (a component's one by one) and which locales each
 * action covers, and its conditions per action ("is creator": only the documents the
 * administrator created), as Strapi's role editor offers them.
 */
export function SubjectDetails(props: DetailsProps) {
  const { name, section, subject, draft, onChange, conditions } = props;
  const actions = actionsOn(section, subject);
  const fieldActions = actions.filter((action) => applies(action, subject, 'fields'));
  const localeActions = actions.filter((action) => applies(action, subject, 'locales'));
  const fields = subject.properties.find((property) => property.value === 'fields')?.children ?? [];
  const locales = subject.properties.find((property) => property.value === 'locales')?.children ?? [];
  return (
    <Stack gap="md" p="sm" role="region" aria-label={`${name}: fields, locales and conditions`}>
      {fieldActions.length > 0 && (
        <PropertyTable label={`${name} fields`} actions={fieldActions}>
          <FieldRows {...props} nodes={fields} prefix="" depth={0} actions={fieldActions} />
        </PropertyTable>
      )}
      {localeActions.length > 0 && (
        <PropertyTable label={`${name} locales`} actions={localeActions}>
          {locales.map((locale) => (
            <Table.Tr key={locale.value}>
              <Table.Th scope="row" fw={400}>
                {locale.label}
              </Table.Th>
              {localeActions.map((action) => (
                <Table.Td key={action.actionId}>
                  <StateCheckbox
                    label={`${name} locale ${locale.value}: ${action.label}`}
                    state={valueState(draft, action, subject, 'locales', locale.value)}
                    onChange={(on) => onChange(setValue(draft, action, subject, 'locales', locale.value, on))}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </PropertyTable>
      )}
      <Table.ScrollContainer minWidth={160 + 180 * conditions.length}>
        <Table withTableBorder striped aria-label={`${name} conditions`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Only the documents of</Table.Th>
              {conditions.map((condition) => (
                <Table.Th key={condition.id}>{condition.displayName}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {actions.map((action) => {
              const granted = draft.some((p) => p.action === action.actionId && p.subject === subject.uid);
              return (
                <Table.Tr key={action.actionId}>
                  <Table.Th scope="row" fw={400}>
                    {action.label}
                  </Table.Th>
                  {conditions.map((condition) => (
                    <Table.Td key={condition.id}>
                      <Checkbox
                        aria-label={`${name} ${action.label}: ${condition.displayName}`}
                        disabled={!granted}
                        checked={hasCondition(draft, action.actionId, subject.uid, condition.id)}
                        onChange={(event) =>
                          onChange(
                            setCondition(
                              draft,
                              action.actionId,
                              subject.uid,
                              condition.id,
                              event.currentTarget.checked,
                            ),
                          )
                        }
                      />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c="dimmed">
        With a condition ticked the action reaches only the documents its administrator created (“Is creator”) or those
        of administrators sharing one of their roles (“Has same role as creator”); without, every document.
      </Text>
    </Stack>
  );
}
