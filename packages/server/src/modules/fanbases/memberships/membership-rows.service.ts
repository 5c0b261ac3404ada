// The door other resources of the module use to membership rows; the repository stays this folder's own.
export { activeMemberCustomers, activeMembershipsOfCustomer, findOfCustomer, findViews, lockMembership, updateMembership } from './memberships.repository';
