//! kubectl's `-l` selector syntax: upstream's lexer and recursive-descent parser, with its error
//! texts. Upstream: apimachinery `pkg/labels/selector.go` (`Lexer`, `Parser`, `parse`,
//! `NewRequirement`).
//!
//! Hand-rolled because no maintained crate implements the apimachinery selector grammar.

use super::{Requirement, Selector};
use crate::validation::go_value::go_quote;
use crate::validation::syntax::{is_qualified_name, is_valid_label_value};
use crate::validation::FieldError;
use std::collections::BTreeSet;

/// Upstream's `Token`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

/// Upstream's `string2token`.
fn literal_token(s: &str) -> Option<Token> {
    Some(match s {
        ")" => Token::ClosedPar,
        "," => Token::Comma,
        "!" => Token::DoesNotExist,
        "==" => Token::DoubleEquals,
        "=" => Token::Equals,
        ">" => Token::GreaterThan,
        "in" => Token::In,
        "<" => Token::LessThan,
        "!=" => Token::NotEquals,
        "notin" => Token::NotIn,
        "(" => Token::OpenPar,
        _ => return None,
    })
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special_symbol(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// `Parser.scan`: every token up to and including the end of the string. Go's lexer reads a NUL
/// byte as the end of input, so a NUL ends the scan where a token would start and ends a token.
fn scan(s: &str) -> Vec<(Token, String)> {
    let bytes = s.as_bytes();
    let mut pos = 0;
    let mut items = Vec::new();
    loop {
        while pos < bytes.len() && is_whitespace(bytes[pos]) {
            pos += 1;
        }
        if pos >= bytes.len() || bytes[pos] == 0 {
            items.push((Token::EndOfString, String::new()));
            return items;
        }
        let start = pos;
        if is_special_symbol(bytes[pos]) {
            // `scanSpecialSymbol`: the longest run of symbols that is still a token (every single
            // symbol is one).
            pos += 1;
            while pos < bytes.len()
                && is_special_symbol(bytes[pos])
                && literal_token(&s[start..=pos]).is_some()
            {
                pos += 1;
            }
            let literal = &s[start..pos];
            let token = literal_token(literal).unwrap_or(Token::Identifier);
            items.push((token, literal.to_string()));
        } else {
            // `scanIDOrKeyword`.
            while pos < bytes.len()
                && bytes[pos] != 0
                && !is_special_symbol(bytes[pos])
                && !is_whitespace(bytes[pos])
            {
                pos += 1;
            }
            let literal = &s[start..pos];
            if bytes.get(pos) == Some(&0) {
                pos += 1;
            }
            let token = literal_token(literal).unwrap_or(Token::Identifier);
            items.push((token, literal.to_string()));
        }
    }
}

/// Upstream's `ParserContext`: in `Values`, `in` and `notin` are plain identifiers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

/// Upstream's `selection.Operator` (the text is what its error messages print).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Operator {
    In,
    NotIn,
    Equals,
    DoubleEquals,
    NotEquals,
    GreaterThan,
    LessThan,
    Exists,
    DoesNotExist,
}

struct Parser {
    items: Vec<(Token, String)>,
    position: usize,
}

impl Parser {
    fn item(&self, at: usize, context: Context) -> (Token, String) {
        // `scan` always ends with EndOfString and parsing stops there, so `at` stays in range.
        let (token, literal) = self.items[at.min(self.items.len() - 1)].clone();
        let token = match token {
            Token::In | Token::NotIn if context == Context::Values => Token::Identifier,
            other => other,
        };
        (token, literal)
    }

    fn lookahead(&self, context: Context) -> (Token, String) {
        self.item(self.position, context)
    }

    fn consume(&mut self, context: Context) -> (Token, String) {
        self.position += 1;
        self.item(self.position - 1, context)
    }

    /// `Parser.parse`.
    fn parse(&mut self) -> Result<Vec<Requirement>, String> {
        let mut requirements = Vec::new();
        loop {
            let (token, literal) = self.lookahead(Context::Values);
            match token {
                Token::Identifier | Token::DoesNotExist => {
                    let r = self
                        .parse_requirement()
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    requirements.push(r);
                    let (t, l) = self.consume(Context::Values);
                    match t {
                        Token::EndOfString => return Ok(requirements),
                        Token::Comma => {
                            let (t2, l2) = self.lookahead(Context::Values);
                            if t2 != Token::Identifier && t2 != Token::DoesNotExist {
                                return Err(format!(
                                    "found '{l2}', expected: identifier after ','"
                                ));
                            }
                        }
                        _ => return Err(format!("found '{l}', expected: ',' or 'end of string'")),
                    }
                }
                Token::EndOfString => return Ok(requirements),
                _ => {
                    return Err(format!(
                        "found '{literal}', expected: !, identifier, or 'end of string'"
                    ))
                }
            }
        }
    }

    /// `Parser.parseRequirement`.
    fn parse_requirement(&mut self) -> Result<Requirement, String> {
        let (key, operator) = self.parse_key_and_infer_operator()?;
        if let Some(op @ (Operator::Exists | Operator::DoesNotExist)) = operator {
            return new_requirement(key, op, BTreeSet::new());
        }
        let operator = self.parse_operator()?;
        let values = match operator {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        new_requirement(key, operator, values)
    }

    /// `Parser.parseKeyAndInferOperator`.
    fn parse_key_and_infer_operator(&mut self) -> Result<(String, Option<Operator>), String> {
        let mut operator = None;
        let (mut token, mut literal) = self.consume(Context::Values);
        if token == Token::DoesNotExist {
            operator = Some(Operator::DoesNotExist);
            (token, literal) = self.consume(Context::Values);
        }
        if token != Token::Identifier {
            return Err(format!("found '{literal}', expected: identifier"));
        }
        if let Some(e) = validate_label_key(&literal, "<nil>") {
            return Err(e.to_string());
        }
        let (next, _) = self.lookahead(Context::Values);
        if (next == Token::EndOfString || next == Token::Comma)
            && operator != Some(Operator::DoesNotExist)
        {
            operator = Some(Operator::Exists);
        }
        Ok((literal, operator))
    }

    /// `Parser.parseOperator`.
    fn parse_operator(&mut self) -> Result<Operator, String> {
        let (token, literal) = self.consume(Context::KeyAndOperator);
        Ok(match token {
            Token::In => Operator::In,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::GreaterThan => Operator::GreaterThan,
            Token::LessThan => Operator::LessThan,
            Token::NotIn => Operator::NotIn,
            Token::NotEquals => Operator::NotEquals,
            _ => {
                return Err(format!(
                    "found '{literal}', expected: in, notin, =, ==, !=, gt, lt"
                ))
            }
        })
    }

    /// `Parser.parseValues`: `(a,b)`, `()` (one empty value).
    fn parse_values(&mut self) -> Result<BTreeSet<String>, String> {
        let (token, literal) = self.consume(Context::Values);
        if token != Token::OpenPar {
            return Err(format!("found '{literal}' expected: '('"));
        }
        let (token, literal) = self.lookahead(Context::Values);
        match token {
            Token::Identifier | Token::Comma => {
                let values = self.parse_identifiers_list()?;
                if self.consume(Context::Values).0 != Token::ClosedPar {
                    return Err(format!("found '{literal}', expected: ')'"));
                }
                Ok(values)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(BTreeSet::from([String::new()]))
            }
            _ => Err(format!(
                "found '{literal}', expected: ',', ')' or identifier"
            )),
        }
    }

    /// `Parser.parseIdentifiersList`: comma-separated, possibly empty identifiers.
    fn parse_identifiers_list(&mut self) -> Result<BTreeSet<String>, String> {
        let mut values = BTreeSet::new();
        loop {
            let (token, literal) = self.consume(Context::Values);
            match token {
                Token::Identifier => {
                    values.insert(literal);
                    let (next, next_literal) = self.lookahead(Context::Values);
                    match next {
                        Token::Comma => continue,
                        Token::ClosedPar => return Ok(values),
                        _ => return Err(format!("found '{next_literal}', expected: ',' or ')'")),
                    }
                }
                Token::Comma => {
                    if values.is_empty() {
                        values.insert(String::new());
                    }
                    match self.lookahead(Context::Values).0 {
                        Token::ClosedPar => {
                            values.insert(String::new());
                            return Ok(values);
                        }
                        Token::Comma => {
                            values.insert(String::new());
                        }
                        _ => {}
                    }
                }
                _ => return Err(format!("found '{literal}', expected: ',', or identifier")),
            }
        }
    }

    /// `Parser.parseExactValue`: one value, possibly empty (`a=`).
    fn parse_exact_value(&mut self) -> Result<BTreeSet<String>, String> {
        let (token, _) = self.lookahead(Context::Values);
        if token == Token::EndOfString || token == Token::Comma {
            return Ok(BTreeSet::from([String::new()]));
        }
        let (token, literal) = self.consume(Context::Values);
        if token == Token::Identifier {
            return Ok(BTreeSet::from([literal]));
        }
        Err(format!("found '{literal}', expected: identifier"))
    }
}

/// `validateLabelKey` (the parser's copy has no field path, which Go prints as `<nil>`).
fn validate_label_key(key: &str, path: &str) -> Option<FieldError> {
    let msgs = is_qualified_name(key);
    (!msgs.is_empty()).then(|| FieldError::invalid(path, go_quote(key), &msgs.join("; ")))
}

/// `NewRequirement`: the checks on values per operator, then each value as a label value. Several
/// errors print as Go's aggregate (`[e1, e2]`).
fn new_requirement(
    key: String,
    operator: Operator,
    values: BTreeSet<String>,
) -> Result<Requirement, String> {
    let mut errors: Vec<String> = Vec::new();
    let values: Vec<String> = values.into_iter().collect();
    if let Some(e) = validate_label_key(&key, "key") {
        errors.push(e.to_string());
    }
    let mut bound = None;
    if matches!(operator, Operator::GreaterThan | Operator::LessThan) {
        if values.len() != 1 {
            errors.push(format!(
                "values: Invalid value: {}: for 'Gt', 'Lt' operators, exactly one value is required",
                go_string_slice(&values)
            ));
        }
        for (i, v) in values.iter().enumerate() {
            match v.parse::<i64>() {
                Ok(n) => bound = Some(n),
                Err(_) => errors.push(
                    FieldError::invalid(
                        format!("values[{i}]"),
                        go_quote(v),
                        "for 'Gt', 'Lt' operators, the value must be an integer",
                    )
                    .to_string(),
                ),
            }
        }
    }
    for (i, v) in values.iter().enumerate() {
        let msgs = is_valid_label_value(v);
        if !msgs.is_empty() {
            let path = format!("values[{i}][{key}]");
            errors.push(FieldError::invalid(path, go_quote(v), &msgs.join("; ")).to_string());
        }
    }
    match errors.len() {
        0 => {}
        1 => return Err(errors.remove(0)),
        _ => return Err(format!("[{}]", errors.join(", "))),
    }
    Ok(match operator {
        Operator::In | Operator::Equals | Operator::DoubleEquals => Requirement::In(key, values),
        Operator::NotIn | Operator::NotEquals => Requirement::NotIn(key, values),
        Operator::Exists => Requirement::Exists(key),
        Operator::DoesNotExist => Requirement::DoesNotExist(key),
        Operator::GreaterThan => Requirement::GreaterThan(key, bound.unwrap_or_default()),
        Operator::LessThan => Requirement::LessThan(key, bound.unwrap_or_default()),
    })
}

/// Go's `%v` of a `[]string`: `[a b]`.
fn go_string_slice(values: &[String]) -> String {
    format!("[{}]", values.join(" "))
}

/// Parses kubectl's `-l` syntax (`app=x,tier!=db,env in (a,b),!gpu,replicas>2`) as the API server
/// does; the error is upstream's text (`unable to parse requirement: found '(', expected: …`).
pub fn parse(text: &str) -> Result<Selector, String> {
    let mut parser = Parser {
        items: scan(text),
        position: 0,
    };
    Ok(Selector {
        requirements: parser.parse()?,
        nothing: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_upstreams() {
        let cases = [
            ("(((", "found '(', expected: !, identifier, or 'end of string'"),
            (
                "a b",
                "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
            ),
            ("a=b c", "found 'c', expected: ',' or 'end of string'"),
            (
                "a in b",
                "unable to parse requirement: found 'b' expected: '('",
            ),
            ("a,", "found '', expected: identifier after ','"),
            (
                "a=(",
                "unable to parse requirement: found '(', expected: identifier",
            ),
            (
                "a in (b c)",
                "unable to parse requirement: found 'c', expected: ',' or ')'",
            ),
            (
                "a>b",
                "unable to parse requirement: values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).err().as_deref(), Some(want), "{text:?}");
        }
        assert!(parse("-x").unwrap_err().starts_with(
            "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of"
        ));
    }

    #[test]
    fn valid_forms() {
        let sel = parse("x in (foo,,baz),y,z notin (),!w,a==b,c!=d,n>2,m<5").unwrap();
        assert_eq!(sel.requirements.len(), 8);
        assert!(parse("  ").unwrap().is_empty());
        assert_eq!(
            parse("a notin ()").unwrap().requirements,
            vec![Requirement::NotIn("a".into(), vec![String::new()])]
        );
    }
}
