// The door the review (approvals/) uses to content rows and their history; the repository stays this folder's own.
import * as repo from './contents.repository';

export const findContent = repo.findContent;
export const updateContent = repo.updateContent;
export const insertApproval = repo.insertApproval;
export const listApprovalHistory = repo.listApprovals;
