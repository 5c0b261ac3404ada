// What booking and tickets use of orders: they reach the rows through here, not through the repository.
export { findOrder, findOrderBy, findOrdersByIds, insertOrder, insertOrderIfCodeFree, insertOrdersIfCodesFree, type NewOrder, type OrderRow } from './orders.repository';
// Booking, refunds and the kinds' modules reach order lines through here too.
export { insertLineItems, lineItemsOfOrders, serializeLineItem, ticketLineItem, ticketLineItemRow, type LineItemRow, type NewLineItem } from './line-items.repository';
