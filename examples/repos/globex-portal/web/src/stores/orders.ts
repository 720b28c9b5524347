import { defineStore } from 'pinia';
import { ApiService } from '@/services/api';

export type OrderLine = { sku: string; quantity: number; unitPrice: number };

export type Order = {
  id: string;
  status: 'pending' | 'paid' | 'shipped' | 'cancelled';
  total: number;
  currency: string;
  lines: OrderLine[];
  invoiceUrl?: string;
  createdAt: string;
};

export const useOrdersStore = defineStore('orders', {
  state: () => ({
    orders: [] as Order[],
    current: null as Order | null,
    loading: false,
    error: null as number | null,
  }),
  actions: {
    async fetchOrders() {
      this.loading = true;
      try {
        this.orders = await ApiService.get<Order[]>('/orders');
      } finally {
        this.loading = false;
      }
    },
    async fetchOrder(id: string) {
      this.error = null;
      try {
        this.current = await ApiService.get<Order>(`/orders/${encodeURIComponent(id)}`);
      } catch (err: any) {
        this.error = err?.response?.status ?? 500;
      }
    },
    async placeOrder(lines: OrderLine[], currency = 'USD') {
      const created = await ApiService.post<Order>('/orders', { lines, currency });
      this.orders.unshift(created);
      return created;
    },
  },
});
