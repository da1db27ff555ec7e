//! Learner-facing text in several languages: a YAML map `{en: …, zh: …}`, or one plain string for
//! text that needs no translation (a command, a name).

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// The language key of a plain (untranslated) string.
const NEUTRAL: &str = "*";

/// Text in one or more languages (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Text(BTreeMap<String, String>);

impl Text {
    /// The text in `language`, else in English, else in any language present.
    pub fn get(&self, language: &str) -> &str {
        self.0
            .get(language)
            .or_else(|| self.0.get(NEUTRAL))
            .or_else(|| self.0.get("en"))
            .or_else(|| self.0.values().next())
            .map(String::as_str)
            .unwrap_or("")
    }

    /// The languages of `wanted` this text lacks (none for an untranslated plain string).
    pub fn missing<'a>(&self, wanted: &'a [String]) -> Vec<&'a str> {
        if self.0.contains_key(NEUTRAL) {
            return Vec::new();
        }
        wanted
            .iter()
            .filter(|l| !self.0.contains_key(l.as_str()))
            .map(String::as_str)
            .collect()
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text, or a map from language (en, zh) to text")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(BTreeMap::from([(NEUTRAL.to_string(), v.to_string())])))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
                let mut texts = BTreeMap::new();
                while let Some((language, text)) = map.next_entry::<String, String>()? {
                    if language.is_empty()
                        || !language
                            .chars()
                            .all(|c| c.is_ascii_alphabetic() || c == '-')
                    {
                        return Err(de::Error::custom(format!(
                            "\"{language}\" is not a language code (en, zh, …)"
                        )));
                    }
                    texts.insert(language, text);
                }
                if texts.is_empty() {
                    return Err(de::Error::custom("a text needs at least one language"));
                }
                Ok(Text(texts))
            }
        }
        deserializer.deserialize_any(TextVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_language_and_falls_back_to_english() {
        let text: Text = serde_yaml::from_str("{en: Hello, zh: 你好}").unwrap();
        assert_eq!(text.get("zh"), "你好");
        assert_eq!(text.get("fr"), "Hello");
        let plain: Text = serde_yaml::from_str("kubectl get ds").unwrap();
        assert_eq!(plain.get("zh"), "kubectl get ds");
        let wanted = vec!["en".to_string(), "zh".to_string()];
        assert!(plain.missing(&wanted).is_empty());
        let only_en: Text = serde_yaml::from_str("{en: Hello}").unwrap();
        assert_eq!(only_en.missing(&wanted), ["zh"]);
    }
}
