// What booking and tickets use of orders: they reach the rows through here, not through the repository.
export { findOrderBy, insertOrder, insertOrderIfCodeFree, insertOrdersIfCodesFree, type NewOrder, type OrderRow } from './orders.repository';
