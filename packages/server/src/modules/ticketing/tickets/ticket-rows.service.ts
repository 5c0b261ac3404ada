// What orders and booking use of tickets: they reach the rows through here, not through the repository.
export { insertTickets, lockTicketsOfOrders, makeTicketsValid, setTicketStatus, ticketsOfOrders, type NewTicket, type TicketRow, type ValidTicket } from './tickets.repository';
