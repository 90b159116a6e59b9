/** The stored locales (`GET /admin/locales`) and the locale switcher of localized content-types. */
import { currentParams } from './url-params.ts';
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { api } from './api.ts';
import type { ContentTypeDescription } from './schema.ts';

export interface Locale {
  code: string;
  name: string;
  isDefault: boolean;
}

export function useLocales() {
  return useQuery({
    queryKey: ['locales'],
    queryFn: async () => (await api<{ data: Locale[] }>('/admin/locales')).data,
    staleTime: 60_000,
  });
}

/**
 * The locale a screen shows (`?locale=`; without it the default locale, or the first of `allowed`
 * when the administrator may not use the default one), or undefined for a type that is not localized.
 */
export function useLocale(
  type: ContentTypeDescription,
  allowed?: readonly string[],
): [string | undefined, (code: string) => void] {
  const [params, setParams] = useSearchParams();
  const locales = useLocales();
  const byDefault = locales.data?.find((locale) => locale.isDefault)?.code;
  const fallback =
    allowed && byDefault !== undefined && !allowed.includes(byDefault) ? (allowed[0] ?? byDefault) : byDefault;
  const locale = type.localized ? (params.get('locale') ?? fallback) : undefined;
  const setLocale = (code: string) => {
    const next = currentParams();
    next.set('locale', code);
    next.delete('page');
    setParams(next);
  };
  return [locale, setLocale];
}

/** The stored locales' codes, once read. */
export function useLocaleCodes(): string[] | undefined {
  return useLocales().data?.map((locale) => locale.code);
}

/** The locale switcher; with `allowed`, only those locales (the ones the administrator's permission names). */
export function LocaleSelect({
  value,
  onChange,
  label = 'Locale',
  allowed,
}: {
  value: string | undefined;
  onChange: (code: string) => void;
  label?: string;
  allowed?: readonly string[];
}) {
  const locales = useLocales();
  const shown = (locales.data ?? []).filter((locale) => !allowed || allowed.includes(locale.code));
  return (
    <NativeSelect
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={shown.map((locale) => ({
        value: locale.code,
        label:
          locale.name === locale.code || locale.name.includes(`(${locale.code})`)
            ? locale.name
            : `${locale.name} (${locale.code})`,
      }))}
      w={200}
    />
  );
}
