import { Checkbox, Group, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ALLOWED_TYPES, type AttributeFormValues } from '../../builder/attribute-form.ts';
import type { DraftAttribute } from '../../builder/draft.ts';

type Form = UseFormReturnType<AttributeFormValues>;

const NUMBER_FORMATS = [
  { value: 'integer', label: 'integer (ex: 10)' },
  { value: 'biginteger', label: 'big integer (ex: 123456789)' },
  { value: 'decimal', label: 'decimal (ex: 2.22)' },
  { value: 'float', label: 'float (ex: 3.3333333)' },
];
const DATE_TYPES = [
  { value: 'date', label: 'date (ex: 2025-01-31)' },
  { value: 'datetime', label: 'datetime (ex: 2025-01-31 09:30)' },
  { value: 'time', label: 'time (ex: 09:30)' },
];
const ALLOWED_TYPE_LABELS: Record<(typeof ALLOWED_TYPES)[number], string> = {
  images: 'Images (JPEG, PNG, GIF, SVG, TIFF, ICO, DVU)',
  videos: 'Videos (MPEG, MP4, Quicktime, WMV, AVI, FLV)',
  audios: 'Audios (MP3, WAV, OGG)',
  files: 'Files (CSV, ZIP, PDF, Excel, JSON, ...)',
};

/** The field's name, then what its kind asks first: text short or long, a number's format, a media's... */
export function AttributeTypeFields({ form, siblings }: { form: Form; siblings: DraftAttribute[] }) {
  const { values } = form;
  // A new format or date type has another kind of default (Strapi's screen drops it too).
  const setType = (type: string) => form.setValues({ type, default: '' });
  return (
    <Stack>
      <TextInput
        label="Name"
        description="The API's name for it: letters, digits and underscores"
        required
        data-autofocus
        {...form.getInputProps('name')}
      />
      {values.kind === 'text' && (
        <Radio.Group label="Type" value={values.type} onChange={setType}>
          <Group mt="xs">
            <Radio value="string" label="Short text" description="Titles, names, links: searched exactly" />
            <Radio value="text" label="Long text" description="Descriptions, biographies" />
          </Group>
        </Radio.Group>
      )}
      {values.kind === 'number' && (
        <NativeSelect
          label="Number format"
          data={NUMBER_FORMATS}
          value={values.type}
          onChange={(event) => setType(event.currentTarget.value)}
        />
      )}
      {values.kind === 'date' && (
        <NativeSelect
          label="Date type"
          data={DATE_TYPES}
          value={values.type}
          onChange={(event) => setType(event.currentTarget.value)}
        />
      )}
      {values.type === 'enumeration' && (
        <Textarea
          label="Values (one line per value)"
          placeholder={'morning\nnoon\nevening'}
          required
          autosize
          minRows={3}
          {...form.getInputProps('enum')}
        />
      )}
      {values.type === 'media' && (
        <>
          <Radio.Group
            label="Type"
            value={values.multiple ? 'multiple' : 'single'}
            onChange={(value) => form.setFieldValue('multiple', value === 'multiple')}
          >
            <Group mt="xs">
              <Radio value="multiple" label="Multiple media" description="Sliders, carousels, downloads" />
              <Radio value="single" label="Single media" description="An avatar, a cover" />
            </Group>
          </Radio.Group>
          <Checkbox.Group
            label="Allowed types of media"
            description="None ticked: any file"
            {...form.getInputProps('allowedTypes')}
          >
            <Stack gap={4} mt="xs">
              {ALLOWED_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={ALLOWED_TYPE_LABELS[type]} />
              ))}
            </Stack>
          </Checkbox.Group>
        </>
      )}
      {values.type === 'uid' && (
        <NativeSelect
          label="Attached field"
          description="The uid is made from this field's value"
          data={[
            { value: '', label: 'None' },
            ...siblings
              .filter((attribute) => attribute.type === 'string' || attribute.type === 'text')
              .map((attribute) => attribute.name),
          ]}
          {...form.getInputProps('targetField')}
        />
      )}
    </Stack>
  );
}
