// What the other ticketing folders use of payments: recording one, and the ones a refund goes back to.
export { insertPayment as recordPayment, insertPayments as recordPayments, serializePayment, succeededPayments, type PaymentRow } from './payments.repository';
