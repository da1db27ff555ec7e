//! [`LookupMap`]: a hash map for state the simulator looks up by key and never walks in hash order.
//!
//! The core keeps its state in B-trees so that whatever walks a map walks it in one order, natively
//! and in WebAssembly (a hasher's order differs between 64- and 32-bit targets, and a seeded one
//! between runs). Some maps are only looked up, on every pod write: the DaemonSet cache's node
//! entries and the kubelets' runtimes. As B-trees with string keys their searches were a fifth of a
//! 5 000-node rolling update. This type gives them FxHash (`rustc-hash`: no random seed) and no
//! way to walk them in hash order: a walk gets the entries sorted by key.

use rustc_hash::FxHashMap;
use std::borrow::Borrow;
use std::fmt;
use std::hash::Hash;

/// A map looked up by key; walked only in key order ([`LookupMap::sorted`]).
#[derive(Clone)]
pub(crate) struct LookupMap<K, V>(FxHashMap<K, V>);

impl<K: Hash + Eq + Ord, V> LookupMap<K, V> {
    pub fn get<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.0.get(key)
    }

    pub fn get_mut<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.0.get_mut(key)
    }

    pub fn contains_key<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.0.contains_key(key)
    }

    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.0.insert(key, value)
    }

    pub fn remove<Q: Hash + Eq + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.0.remove(key)
    }

    /// The value of `key`, inserted as `V::default()` if there was none.
    pub fn get_or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        self.0.entry(key).or_default()
    }

    /// Every entry, in key order.
    pub fn sorted(&self) -> Vec<(&K, &V)> {
        let mut entries: Vec<_> = self.0.iter().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        entries
    }

    /// Every entry, in key order, with its value to change.
    pub fn sorted_mut(&mut self) -> Vec<(&K, &mut V)> {
        let mut entries: Vec<_> = self.0.iter_mut().collect();
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
        entries
    }
}

/// Equal when they hold the same entries (the test oracle compares caches).
impl<K: Hash + Eq, V: PartialEq> PartialEq for LookupMap<K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<K, V> Default for LookupMap<K, V> {
    fn default() -> Self {
        LookupMap(FxHashMap::default())
    }
}

impl<K: Hash + Eq, V> FromIterator<(K, V)> for LookupMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        LookupMap(entries.into_iter().collect())
    }
}

/// In key order, as a B-tree map prints.
impl<K: Hash + Eq + Ord + fmt::Debug, V: fmt::Debug> fmt::Debug for LookupMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.sorted()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::LookupMap;

    #[test]
    fn walks_are_in_key_order_whatever_the_insertion_order() {
        let names = ["node-3", "node-10", "kind-worker", "a", "node-2"];
        let mut map = LookupMap::default();
        for (i, name) in names.iter().enumerate() {
            map.insert(name.to_string(), i);
        }
        let mut sorted = names.map(str::to_string).to_vec();
        sorted.sort();
        let keys: Vec<String> = map.sorted().into_iter().map(|(k, _)| k.clone()).collect();
        assert_eq!(keys, sorted);
        for (_, v) in map.sorted_mut() {
            *v += 10;
        }
        assert_eq!(map.get("node-10"), Some(&11));
        assert_eq!(
            format!("{map:?}"),
            r#"{"a": 13, "kind-worker": 12, "node-10": 11, "node-2": 14, "node-3": 10}"#
        );
        assert_eq!(*map.get_or_default("new".to_string()), 0);
        assert_eq!(map.remove("a"), Some(13));
        assert!(!map.contains_key("a"));
    }
}
