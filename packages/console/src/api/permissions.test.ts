import { describe, expect, it } from 'vitest';
import { isStaff, permissionsOf } from './permissions';

describe('what a member may do', () => {
  it('unites the active roles, and ignores invitations', () => {
    const door = permissionsOf([{ member: 'mem_1', organization: 'org_1', role: 'checkin', status: 'active' }]);
    expect(door.has('events:checkin')).toBe(true);
    expect(door.has('events:write')).toBe(false);
    expect(door.has('developers:read')).toBe(false);
    const developer = permissionsOf([
      { member: 'mem_2', organization: null, role: 'developer', status: 'active' },
      { member: 'mem_3', organization: 'org_1', role: 'owner', status: 'invited' },
    ]);
    expect(developer.has('developers:write')).toBe(true);
    expect(developer.has('events:write')).toBe(false);
    expect(permissionsOf([{ member: 'mem_4', organization: null, role: 'no-such-role', status: 'active' }]).size).toBe(0);
  });

  it('tells the tenant role apart from organization roles', () => {
    const both = [
      { member: 'm1', organization: 'org_1', role: 'owner', status: 'active' },
      { member: 'm2', organization: null, role: 'viewer', status: 'active' },
    ];
    expect(permissionsOf(both).has('promoters:write')).toBe(true);
    expect(permissionsOf(both, { tenantOnly: true }).has('promoters:write')).toBe(false);
    expect(permissionsOf(both, { tenantOnly: true }).has('promoters:read')).toBe(true);
  });

  it('lets staff switch environments, not organization members', () => {
    expect(isStaff([{ member: 'm', organization: null, role: 'viewer', status: 'active' }])).toBe(true);
    expect(isStaff([{ member: 'm', organization: 'org_1', role: 'owner', status: 'active' }])).toBe(false);
  });
});
