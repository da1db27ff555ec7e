//! [`LookupTable`]: a kind's objects by (namespace, name), found by hash and walked in key order.
//!
//! The pods of a 5 000-node cluster are looked up and rewritten (status writes, bindings) far
//! more often than they are created, deleted or listed. In a B-tree keyed by two strings each
//! lookup compared ~25 keys (two string comparisons each): a seventh of a rolling update's
//! instructions, growing with the cluster. Here a lookup or a rewrite is one hash probe; only a
//! create or a delete also touches the ordered set of keys that every walk follows, so what is
//! walked comes out in (namespace, name) order as before, natively and in WebAssembly.

use super::{Key, KeyRef};
use crate::lookup_map::LookupMap;
use std::collections::BTreeSet;

/// Objects by key: a [`LookupMap`] of the values and a B-tree of the keys for walks.
#[derive(Clone, Debug)]
pub(crate) struct LookupTable<V> {
    values: LookupMap<Key, V>,
    order: BTreeSet<Key>,
}

impl<V> Default for LookupTable<V> {
    fn default() -> Self {
        LookupTable {
            values: LookupMap::default(),
            order: BTreeSet::new(),
        }
    }
}

impl<V> LookupTable<V> {
    /// The value stored under `key` (an owned key or [`super::key_ref`] of two strings).
    pub fn get(&self, key: &dyn KeyRef) -> Option<&V> {
        self.values.get(key)
    }

    /// The value stored under `key`, to change in place.
    pub fn get_mut(&mut self, key: &dyn KeyRef) -> Option<&mut V> {
        self.values.get_mut(key)
    }

    /// Stores `value` under `key`; returns the value it replaces. Only a new key is copied (into
    /// the ordered set).
    pub fn insert(&mut self, key: Key, value: V) -> Option<V> {
        if let Some(slot) = self.values.get_mut(&key as &dyn KeyRef) {
            return Some(std::mem::replace(slot, value));
        }
        self.order.insert(key.clone());
        self.values.insert(key, value);
        None
    }

    /// Removes the value stored under `key` and returns it.
    pub fn remove(&mut self, key: &Key) -> Option<V> {
        let removed = self.values.remove(key as &dyn KeyRef)?;
        self.order.remove(key);
        Some(removed)
    }

    /// How many values there are.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Every value, in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        self.order.iter().filter_map(|key| self.get(key))
    }

    /// The values of one namespace, in name order.
    pub fn in_namespace<'a>(&'a self, namespace: &'a str) -> impl Iterator<Item = &'a V> + 'a {
        (self.order.range((namespace.to_string(), String::new())..))
            .take_while(move |(ns, _)| ns == namespace)
            .filter_map(|key| self.get(key))
    }
}

#[cfg(test)]
mod tests {
    use super::super::key_ref;
    use super::*;

    fn key(ns: &str, name: &str) -> Key {
        (ns.to_string(), name.to_string())
    }

    /// Walks follow (namespace, name) order whatever the insertion order; borrowed keys find what
    /// owned keys stored (their hashes agree); a replaced value keeps one place in the order.
    #[test]
    fn finds_by_borrowed_keys_and_walks_in_key_order() {
        let mut table = LookupTable::default();
        for (i, (ns, name)) in [("kube-system", "b"), ("default", "z"), ("default", "a")]
            .into_iter()
            .enumerate()
        {
            assert_eq!(table.insert(key(ns, name), i), None);
        }
        assert_eq!(table.insert(key("default", "z"), 7), Some(1));
        assert_eq!(table.values().copied().collect::<Vec<_>>(), [2, 7, 0]);
        assert_eq!(table.in_namespace("default").count(), 2);
        assert_eq!(
            table
                .in_namespace("kube-system")
                .copied()
                .collect::<Vec<_>>(),
            [0]
        );
        assert_eq!(table.get(key_ref(&("default", "a"))), Some(&2));
        *table.get_mut(key_ref(&("kube-system", "b"))).unwrap() += 10;
        assert_eq!(table.remove(&key("kube-system", "b")), Some(10));
        assert_eq!(table.remove(&key("kube-system", "b")), None);
        assert_eq!(table.len(), 2);
        assert_eq!(table.in_namespace("kube-system").count(), 0);
    }
}
