import { createRouter, createWebHistory } from 'vue-router';
import OrderList from './components/OrderList.vue';
import OrderDetail from './views/OrderDetail.vue';
import ReportsView from './views/ReportsView.vue';

export const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/', redirect: '/orders' },
    { path: '/orders', name: 'orders', component: OrderList },
    { path: '/orders/:id', name: 'order-detail', component: OrderDetail, props: true },
    { path: '/reports', name: 'reports', component: ReportsView },
  ],
});
