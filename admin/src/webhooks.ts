/** The admin API's webhooks (`/admin/webhooks`, src/features/events/admin-routes.ts) as the screens read them. */
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

// The server's own answers, not copies (type imports: nothing of the server is bundled).
import type { DeliveryLogEntry as Delivery, Webhook } from '../../src/features/events/contract.ts';

export type { Delivery, Webhook };

export const webhookPath = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  return useQuery({
    queryKey: ['webhooks'],
    queryFn: async () => (await api<{ data: Webhook[] }>('/admin/webhooks')).data,
  });
}

export function useWebhook(id: string | undefined) {
  return useQuery({
    queryKey: ['webhooks', id],
    enabled: id !== undefined,
    queryFn: async () => (await api<{ data: Webhook }>(webhookPath(id!))).data,
  });
}

/** The delivery log, newest first; read again every few seconds while shown (deliveries happen in the background). */
export function useDeliveries(id: string | undefined) {
  return useQuery({
    queryKey: ['webhooks', id, 'deliveries'],
    enabled: id !== undefined,
    refetchInterval: 3000,
    queryFn: async () =>
      await api<{ data: Delivery[]; meta: { pagination: { total: number } } }>(
        `${webhookPath(id!)}/deliveries?pageSize=25`,
      ),
  });
}
