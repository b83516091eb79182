import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { COINS, VendingError, makeChange, VendingMachine } from '../src/vendingmachine.js';

function makeMachine(bank = { 100: 5, 25: 10, 10: 10, 5: 10 }) {
  return new VendingMachine(
    {
      A1: { name: 'Chips', price: 125, stock: 2 },
      B2: { name: 'Soda', price: 150, stock: 1 },
      C3: { name: 'Gum', price: 35, stock: 0 },
    },
    bank,
  );
}

describe('vendingmachine', () => {
  describe('makeChange', () => {
    it('uses the largest coins first', () => {
      assert.deepEqual(makeChange(340), [200, 100, 25, 10, 5]);
      assert.deepEqual(makeChange(65), [25, 25, 10, 5]);
      assert.deepEqual(makeChange(200), [200]);
    });

    it('returns an empty list for zero', () => {
      assert.deepEqual(makeChange(0), []);
    });

    it('respects limited coins in the bank', () => {
      assert.deepEqual(makeChange(45, { 25: 1, 10: 3 }), [25, 10, 10]);
      assert.equal(makeChange(50, { 25: 1, 10: 3 }), null);
      assert.deepEqual(makeChange(30, { 25: 0, 10: 3 }), [10, 10, 10]);
      assert.equal(makeChange(30, { 25: 1, 10: 0, 5: 0 }), null);
    });

    it('returns null when the amount cannot be made', () => {
      assert.equal(makeChange(3), null);
      assert.throws(() => makeChange(-5), RangeError);
      assert.throws(() => makeChange(2.5), /non-negative integer/);
    });
  });

  describe('inserting coins', () => {
    it('accumulates credit and enters the ready state', () => {
      const vm = makeMachine();
      assert.equal(vm.state, 'idle');
      assert.equal(vm.insert(100), 100);
      assert.equal(vm.insert(25), 125);
      assert.equal(vm.state, 'ready');
      assert.equal(vm.bank[100], 6);
    });

    it('rejects unknown coins without changing credit', () => {
      const vm = makeMachine();
      vm.insert(5);
      assert.throws(() => vm.insert(1), VendingError);
      assert.throws(() => vm.insert(50), /Rejected coin: 50/);
      let caught = null;
      try {
        vm.insert(3);
      } catch (err) {
        caught = err;
      }
      assert.equal(caught.name, 'VendingError');
      assert.equal(vm.credit, 5);
      assert.equal(COINS.length, 5);
    });
  });

  describe('selecting products', () => {
    it('vends with exact credit and no change', () => {
      const vm = makeMachine();
      vm.insert(100);
      vm.insert(25);
      assert.deepEqual(vm.select('A1'), { product: 'Chips', change: [] });
      assert.equal(vm.products.A1.stock, 1);
      assert.equal(vm.credit, 0);
      assert.equal(vm.state, 'idle');
      assert.deepEqual(vm.refund(), []);
    });

    it('gives greedy change from the bank', () => {
      const vm = makeMachine();
      vm.insert(200);
      assert.deepEqual(vm.select('A1'), { product: 'Chips', change: [25, 25, 25] });
      assert.equal(vm.bank[25], 7);
      assert.equal(vm.bank[200], 1);
    });

    it('reports how much more credit is needed', () => {
      const vm = makeMachine();
      vm.insert(100);
      assert.throws(() => vm.select('B2'), /need 50 more/);
      vm.insert(25);
      vm.insert(25);
      assert.equal(vm.select('B2').product, 'Soda');
    });

    it('refuses to vend in the idle state', () => {
      const vm = makeMachine();
      assert.throws(() => vm.select('A1'), /need 125 more/);
    });

    it('rejects sold out and unknown products', () => {
      const vm = makeMachine();
      vm.insert(100);
      assert.throws(() => vm.select('C3'), /Sold out: Gum/);
      assert.throws(() => vm.select('Z9'), /Unknown product: Z9/);
      assert.equal(vm.credit, 100);
    });

    it('sells the last item then reports sold out', () => {
      const vm = makeMachine();
      vm.insert(200);
      vm.select('B2');
      assert.equal(vm.products.B2.stock, 0);
      vm.insert(200);
      assert.throws(() => vm.select('B2'), /Sold out/);
    });

    it('refuses when exact change is not available', () => {
      const vm = makeMachine({});
      vm.insert(200);
      assert.throws(() => vm.select('A1'), /Cannot make change/);
      assert.equal(vm.products.A1.stock, 2);
      assert.equal(vm.credit, 200);
    });
  });

  describe('refunds and restocking', () => {
    it('refunds inserted coins and resets the state', () => {
      const vm = makeMachine();
      vm.insert(25);
      vm.insert(10);
      assert.deepEqual(vm.refund(), [25, 10]);
      assert.equal(vm.credit, 0);
      assert.equal(vm.state, 'idle');
      assert.equal(vm.bank[25], 10);
      assert.deepEqual(vm.refund(), []);
    });

    it('restocks known products with positive counts', () => {
      const vm = makeMachine();
      assert.equal(vm.restock('C3', 4), 4);
      assert.equal(vm.restock('C3', 1), 5);
      assert.throws(() => vm.restock('C3', 0), RangeError);
      assert.throws(() => vm.restock('X1', 1), VendingError);
    });

    it('tracks the bank total', () => {
      const vm = makeMachine({ 100: 1, 25: 3, 5: 1 });
      assert.equal(vm.bankTotal(), 180);
      vm.insert(200);
      assert.equal(vm.bankTotal(), 380);
      vm.select('A1');
      assert.equal(vm.bankTotal(), 305);
      assert.equal(new VendingMachine().bankTotal(), 0);
    });
  });
});
