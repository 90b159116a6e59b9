import { Paper, SimpleGrid, Table, Text, UnstyledButton } from '@mantine/core';
import { formatSize, kindOf, type MediaFile } from '../../media.ts';
import { FilePreview } from './FileIcon.tsx';

/**
 * Files in a grid of cards or a table. Each file is a button: it opens the file (the library's
 * screen) or, given `selected`, toggles its choice (a picker; `aria-pressed` says which).
 */
export interface MediaBrowserProps {
  files: MediaFile[];
  view: 'grid' | 'list';
  onActivate: (file: MediaFile) => void;
  selected?: Set<number>;
  label: string;
}

const dimensions = (file: MediaFile) => (file.width && file.height ? `${file.width}×${file.height}` : '');
const selectedOutline = { outline: '2px solid var(--mantine-primary-color-filled)', outlineOffset: 2 };

export function MediaBrowser({ files, view, onActivate, selected, label }: MediaBrowserProps) {
  const pressed = (file: MediaFile) => (selected ? { 'aria-pressed': selected.has(file.id) } : {});
  if (view === 'list') {
    return (
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover aria-label={label} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={72}>Preview</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Dimensions</Table.Th>
              <Table.Th>Uploaded</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map((file) => (
              <Table.Tr
                key={file.id}
                style={selected?.has(file.id) ? { background: 'var(--mantine-primary-color-light)' } : undefined}
              >
                <Table.Td>
                  <FilePreview file={file} height={48} />
                </Table.Td>
                <Table.Td>
                  <UnstyledButton
                    onClick={() => onActivate(file)}
                    aria-label={file.name}
                    {...pressed(file)}
                    c="indigo.7"
                    fw={500}
                  >
                    {file.name}
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>{file.mime}</Table.Td>
                <Table.Td>{formatSize(file.size)}</Table.Td>
                <Table.Td>{dimensions(file)}</Table.Td>
                <Table.Td>{new Date(file.createdAt).toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, md: 4, lg: 5 }}
      component="ul"
      aria-label={label}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {files.map((file) => (
        <li key={file.id}>
          <UnstyledButton onClick={() => onActivate(file)} aria-label={file.name} {...pressed(file)} w="100%">
            <Paper withBorder p={6} style={selected?.has(file.id) ? selectedOutline : undefined}>
              <FilePreview file={file} />
              <Text size="sm" truncate mt={6} fw={500}>
                {file.name}
              </Text>
              <Text size="xs" c="dimmed" truncate>
                {[
                  (file.ext ?? '').replace(/^\./, '').toUpperCase() || kindOf(file),
                  formatSize(file.size),
                  dimensions(file),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Paper>
          </UnstyledButton>
        </li>
      ))}
    </SimpleGrid>
  );
}
