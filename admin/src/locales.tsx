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

/** The locale a screen shows (`?locale=`; the default locale without it), or undefined for a type that is not localized. */
export function useLocale(type: ContentTypeDescription): [string | undefined, (code: string) => void] {
  const [params, setParams] = useSearchParams();
  const locales = useLocales();
  const fallback = locales.data?.find((locale) => locale.isDefault)?.code;
  const locale = type.localized ? (params.get('locale') ?? fallback) : undefined;
  const setLocale = (code: string) => {
    const next = currentParams();
    next.set('locale', code);
    next.delete('page');
    setParams(next);
  };
  return [locale, setLocale];
}

export function LocaleSelect({
  value,
  onChange,
  label = 'Locale',
}: {
  value: string | undefined;
  onChange: (code: string) => void;
  label?: string;
}) {
  const locales = useLocales();
  return (
    <NativeSelect
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={(locales.data ?? []).map((locale) => ({
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
