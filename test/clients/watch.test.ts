// The pure rules of who watches which account (core/clients/watch.ts): scope, binding, the
// merchant's AppSecret, report groups and unwatched accounts. The HTTP and store sides are in
// test/security/report-scope.test.ts and test/store-contract/report-groups.contract.ts.
import { expect, test } from "bun:test";
import { allWatchers, boundAccounts, merchantWatcher, reportGroups, type Watcher, watched, watchersOf } from "../../src/core/clients/watch.ts";
import type { KeyedClient } from "../../src/core/store.ts";
import { account } from "../report/fake-view.ts";

const ali1 = account(1, { pid: 1001 });
const ali2 = account(2, { pid: 1001 });
const wx3 = account(3, { pid: 1001, payType: "wxpay" });
const shared4 = account(4, { pid: 0 });
const other5 = account(5, { pid: 1002 });
const qq6 = account(6, { pid: 1001, payType: "qqpay" });
const all = [ali1, ali2, wx3, shared4, other5, qq6];
const client = (id: number, o: Partial<KeyedClient> = {}): KeyedClient => ({
  id, kind: "smsforwarder", pid: 1001, name: `c${id}`, key: `k${id}`, accountIds: [], createdAt: 0, lastHeartT: 0, lastHeartAt: 0, lastPushAt: 0, ...o,
});
const ids = (w: Watcher, clients: KeyedClient[] = []) => watched(w, all, boundAccounts(clients)).map((a) => a.id);

test("scope: a merchant's client its own and the shared accounts; the operator's every account; V免签 WeChat and Alipay only", () => {
  expect(ids(client(1))).toEqual([1, 2, 3, 4, 6]);
  expect(ids(client(1, { pid: 0 }))).toEqual([1, 2, 3, 4, 5, 6]);
  expect(ids(client(1, { kind: "vmq" }))).toEqual([1, 2, 3, 4]);
});

test("a merchant's AppSecret watches only that merchant's own accounts, never a shared one", () => {
  expect(ids(merchantWatcher(1001))).toEqual([1, 2, 3, 6]);
  expect(ids(merchantWatcher(1002))).toEqual([5]);
});

test("binding hands an account over: unbound watchers (and the AppSecret) no longer cover it", () => {
  const bound = client(1, { accountIds: [1, 4] });
  const clients = [bound, client(2)];
  expect(ids(bound, clients)).toEqual([1, 4]);
  expect(ids(clients[1]!, clients)).toEqual([2, 3, 6]);
  expect(ids(merchantWatcher(1001), clients)).toEqual([2, 3, 6]);
  // A bound account outside the client's scope is not watched (another merchant's).
  expect(ids(client(3, { accountIds: [5] }), [client(3, { accountIds: [5] })])).toEqual([]);
});

test("report groups: the accounts of one pay type that one source could mean, joined across sources", () => {
  const groups = (clients: KeyedClient[], merchantReports: boolean) => Object.fromEntries(reportGroups(all, allWatchers(clients, all, merchantReports)));
  // Nobody reports: every account alone.
  expect(groups([], false)).toEqual({ 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6 });
  // The AppSecret could mean either of 1001's Alipay accounts, never the shared one.
  expect(groups([], true)).toEqual({ 1: 1, 2: 1, 3: 3, 4: 4, 5: 5, 6: 6 });
  // An unbound phone of 1001 could mean 1, 2 or the shared 4 (Alipay); WeChat 3 and QQ 6 stay alone.
  expect(groups([client(1)], false)).toEqual({ 1: 1, 2: 1, 3: 3, 4: 1, 5: 5, 6: 6 });
  // Each Alipay account bound to its own phone: no group at all.
  expect(groups([client(1, { accountIds: [1] }), client(2, { accountIds: [2] }), client(3, { pid: 0, accountIds: [4] })], true)).toEqual({ 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6 });
  // Groups join through a shared member: phone A watches 1+4, phone B 2+4.
  expect(groups([client(1, { accountIds: [1, 4] }), client(2, { accountIds: [2, 4] })], false)).toMatchObject({ 1: 1, 2: 1, 4: 1 });
});

test("unwatched: an account no report source can pay", () => {
  const watchers = allWatchers([client(1, { kind: "vmq", accountIds: [1] })], all, false);
  const by = (a: typeof ali1) => watchersOf(a, watchers, all).length;
  expect(all.map(by)).toEqual([1, 0, 0, 0, 0, 0]);
  const withSecret = allWatchers([], all, true);
  expect(all.map((a) => watchersOf(a, withSecret, all).length)).toEqual([1, 1, 1, 0, 1, 1]); // the shared account: only the operator's phones
});
