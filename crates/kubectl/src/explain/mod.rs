//! The schema `kubectl explain` walks, read from [`fields.tsv`](fields.tsv): kinds, the types their
//! fields point to, and each field's type and description (the playground's own words).

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A top-level kind.
#[derive(Clone, Debug)]
pub struct KindDoc {
    pub name: String,
    /// `""` for the core group.
    pub group: String,
    pub version: String,
    pub description: String,
}

/// One field of a type.
#[derive(Clone, Debug)]
pub struct FieldDoc {
    pub name: String,
    /// As kubectl shows it inside `<…>`: `string`, `[]Container`, `map[string]string`.
    pub type_name: String,
    pub required: bool,
    pub description: String,
}

impl FieldDoc {
    /// The type whose fields this field has (`Container` for `[]Container`), if it is an object.
    pub fn object_type(&self) -> Option<&str> {
        let t = self.type_name.strip_prefix("[]").unwrap_or(&self.type_name);
        let object = t.starts_with(|c: char| c.is_ascii_uppercase());
        object.then_some(t)
    }
}

/// The whole schema.
#[derive(Debug, Default)]
pub struct Schema {
    kinds: Vec<KindDoc>,
    descriptions: BTreeMap<String, String>,
    fields: BTreeMap<String, Vec<FieldDoc>>,
}

/// Fields every kind has (`apiVersion`, `kind`, `metadata`), listed under this pseudo-type.
const COMMON: &str = "_common";

/// The schema in use: bundled (feature `bundled-explain`, native builds), or installed by the web
/// app, which fetches `explain.tsv` after its first render so the descriptions do not weigh on the
/// first load.
static SCHEMA: OnceLock<Schema> = OnceLock::new();

impl Schema {
    /// The schema, or None while the web app has not loaded it yet.
    pub fn current() -> Option<&'static Schema> {
        #[cfg(feature = "bundled-explain")]
        SCHEMA.get_or_init(|| Schema::parse(include_str!("fields.tsv")));
        SCHEMA.get()
    }

    /// Installs the schema from the text of `fields.tsv` (the first installation wins).
    pub fn install(text: &str) {
        let _ = SCHEMA.set(Schema::parse(text));
    }

    /// Parses the TSV form; malformed lines are skipped (a unit test checks there are none).
    fn parse(text: &str) -> Schema {
        let mut schema = Schema::default();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            match cols.as_slice() {
                ["kind", name, group, version, description] => schema.kinds.push(KindDoc {
                    name: name.to_string(),
                    group: if *group == "core" { "" } else { group }.to_string(),
                    version: version.to_string(),
                    description: description.to_string(),
                }),
                ["type", name, description] => {
                    schema
                        .descriptions
                        .insert(name.to_string(), description.to_string());
                }
                ["field", path, ty, description] => {
                    let Some((owner, name)) = path.split_once('.') else {
                        continue;
                    };
                    let (type_name, required) = match ty.strip_suffix(" -required-") {
                        Some(t) => (t, true),
                        None => (*ty, false),
                    };
                    schema
                        .fields
                        .entry(owner.to_string())
                        .or_default()
                        .push(FieldDoc {
                            name: name.to_string(),
                            type_name: type_name.trim_matches(['<', '>']).to_string(),
                            required,
                            description: description.to_string(),
                        });
                }
                _ => {}
            }
        }
        schema
    }

    /// The kind named `name` (`DaemonSet`).
    pub fn kind(&self, name: &str) -> Option<&KindDoc> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// A type's description.
    pub fn description(&self, type_name: &str) -> Option<&str> {
        self.descriptions.get(type_name).map(String::as_str)
    }

    /// A type's fields, sorted by name (a kind's include the common ones).
    pub fn fields(&self, type_name: &str) -> Vec<&FieldDoc> {
        let mut all: Vec<&FieldDoc> = self.fields.get(type_name).into_iter().flatten().collect();
        if self.kind(type_name).is_some() {
            all.extend(self.fields.get(COMMON).into_iter().flatten());
        }
        all.sort_by(|a, b| a.name.cmp(&b.name));
        all
    }

    /// How many lines the TSV form has that [`Schema::parse`] could not read (for the test).
    #[cfg(test)]
    fn malformed(text: &str) -> Vec<&str> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .filter(|l| {
                let cols = l.split('\t').count();
                !matches!(
                    (l.split('\t').next(), cols),
                    (Some("kind"), 5) | (Some("type"), 3) | (Some("field"), 4)
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_schema_is_well_formed() {
        let text = include_str!("fields.tsv");
        assert_eq!(Schema::malformed(text), Vec::<&str>::new());
        let schema = Schema::current().expect("bundled schema");
        // Every object type a field points to that has fields listed is described, and every
        // kind has a spec or data.
        for fields in schema.fields.values() {
            for f in fields {
                if let Some(t) = f.object_type() {
                    if schema.fields.contains_key(t) && schema.kind(t).is_none() {
                        assert!(schema.description(t).is_some(), "{t} has no description");
                    }
                }
            }
        }
        let names: Vec<&str> = schema
            .fields("DaemonSet")
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        assert_eq!(names, ["apiVersion", "kind", "metadata", "spec", "status"]);
    }
}
