// What orders and booking use of tickets: they reach the rows through here, not through the repository.
export { insertTickets, setTicketHolder, setTicketHolders, setTicketStatus, setTicketStatusOfOrders, ticketsOfOrders, type NewTicket, type TicketRow } from './tickets.repository';
