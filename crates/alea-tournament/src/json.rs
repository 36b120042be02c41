//! Reading a `serde_json::Value` tree with a JSON path in every error.

use std::fmt;

use serde_json::{Map, Value as Json};

use crate::value::Value;

/// Why a tournament file was rejected. `path` is the JSON path of the offending value
/// (`players[2].name`), empty for errors about the whole text (JSON syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// JSON path, e.g. `players[2].chair`.
    pub path: String,
    /// What is wrong, e.g. `unknown key`.
    pub message: String,
    /// 1-based line of a JSON syntax error (0 when the error is about a path).
    pub line: usize,
    /// 1-based column of a JSON syntax error (0 when the error is about a path).
    pub column: usize,
}

impl LoadError {
    pub(crate) fn at(path: &str, message: impl Into<String>) -> LoadError {
        LoadError {
            path: path.to_string(),
            message: message.into(),
            line: 0,
            column: 0,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for LoadError {}

pub(crate) type Result<T> = std::result::Result<T, LoadError>;

/// The JSON type name used in messages.
pub(crate) fn kind_of(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::String(_) => "a text",
        Json::Array(_) => "a list",
        Json::Object(_) => "an object",
    }
}

pub(crate) fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

pub(crate) fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// `expected EXPECTED, found KIND` at `path`: the one wording of a wrong JSON type.
pub(crate) fn wrong_type(path: &str, expected: &str, found: &Json) -> LoadError {
    LoadError::at(
        path,
        format!("expected {expected}, found {}", kind_of(found)),
    )
}

/// A JSON object whose keys were checked against an allowed list.
pub(crate) struct ObjReader<'a> {
    map: &'a Map<String, Json>,
    pub(crate) path: String,
}

impl<'a> ObjReader<'a> {
    pub(crate) fn new(v: &'a Json, path: &str, allowed: &[&str]) -> Result<ObjReader<'a>> {
        let Json::Object(map) = v else {
            return Err(wrong_type(path, "an object", v));
        };
        if let Some(key) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(LoadError::at(&join(path, key), "unknown key"));
        }
        Ok(ObjReader {
            map,
            path: path.to_string(),
        })
    }

    pub(crate) fn path_of(&self, key: &str) -> String {
        join(&self.path, key)
    }

    /// The raw value (null counts as present).
    pub(crate) fn raw(&self, key: &str) -> Option<&'a Json> {
        self.map.get(key)
    }

    /// The value, with `null` treated as absent.
    pub(crate) fn present(&self, key: &str) -> Option<&'a Json> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    /// An object of free-form values (`params`, `fields`): its members as [`Value`]s, in
    /// order; absent is empty.
    pub(crate) fn values(&self, key: &str) -> Result<Vec<(String, Value)>> {
        match self.raw(key) {
            None => Ok(Vec::new()),
            Some(Json::Object(map)) => Ok(map
                .iter()
                .map(|(k, v)| (k.clone(), Value::from_json(v)))
                .collect()),
            Some(v) => Err(wrong_type(&self.path_of(key), "an object", v)),
        }
    }

    pub(crate) fn number(&self, key: &str) -> Result<Option<f64>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => number_at(v, &self.path_of(key)).map(Some),
        }
    }

    pub(crate) fn number_or(&self, key: &str, default: f64) -> Result<f64> {
        Ok(self.number(key)?.unwrap_or(default))
    }

    /// A number ≥ 0.
    pub(crate) fn non_negative(&self, key: &str, default: f64) -> Result<f64> {
        let n = self.number_or(key, default)?;
        if n < 0.0 {
            return Err(LoadError::at(&self.path_of(key), "must not be negative"));
        }
        Ok(n)
    }

    pub(crate) fn bool_or(&self, key: &str, default: bool) -> Result<bool> {
        match self.raw(key) {
            None => Ok(default),
            Some(Json::Bool(b)) => Ok(*b),
            Some(v) => Err(wrong_type(&self.path_of(key), "true or false", v)),
        }
    }

    pub(crate) fn text(&self, key: &str) -> Result<Option<String>> {
        match self.raw(key) {
            None => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(wrong_type(&self.path_of(key), "a text", v)),
        }
    }

    /// A text that may also be `null` (= absent).
    pub(crate) fn nullable_text(&self, key: &str) -> Result<Option<String>> {
        match self.present(key) {
            None => Ok(None),
            Some(Json::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(wrong_type(&self.path_of(key), "a text or null", v)),
        }
    }

    pub(crate) fn text_or(&self, key: &str, default: &str) -> Result<String> {
        Ok(self.text(key)?.unwrap_or_else(|| default.to_string()))
    }

    pub(crate) fn required(&self, key: &str) -> Result<&'a Json> {
        self.raw(key)
            .ok_or_else(|| LoadError::at(&self.path_of(key), "required key is missing"))
    }

    pub(crate) fn required_text(&self, key: &str) -> Result<String> {
        self.required(key)?;
        Ok(self.text(key)?.unwrap_or_default())
    }

    /// An id: a positive whole number.
    pub(crate) fn id(&self, key: &str) -> Result<Option<u32>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => id_at(v, &self.path_of(key)).map(Some),
        }
    }

    pub(crate) fn list(&self, key: &str, limit: usize) -> Result<&'a [Json]> {
        match self.raw(key) {
            None => Ok(&[]),
            Some(v) => list_at(v, &self.path_of(key), limit),
        }
    }

    pub(crate) fn numbers(&self, key: &str, limit: usize) -> Result<Vec<f64>> {
        let path = self.path_of(key);
        self.list(key, limit)?
            .iter()
            .enumerate()
            .map(|(i, v)| number_at(v, &index(&path, i)))
            .collect()
    }

    pub(crate) fn ids(&self, key: &str, limit: usize) -> Result<Vec<u32>> {
        let path = self.path_of(key);
        self.list(key, limit)?
            .iter()
            .enumerate()
            .map(|(i, v)| id_at(v, &index(&path, i)))
            .collect()
    }
}

pub(crate) fn number_at(v: &Json, path: &str) -> Result<f64> {
    match v {
        Json::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(LoadError::at(path, "number out of range")),
        },
        _ => Err(wrong_type(path, "a number", v)),
    }
}

pub(crate) fn id_at(v: &Json, path: &str) -> Result<u32> {
    let n = number_at(v, path)?;
    if n.fract() != 0.0 || n < 1.0 || n > f64::from(u32::MAX) {
        return Err(LoadError::at(path, "an id must be a positive whole number"));
    }
    Ok(n as u32)
}

pub(crate) fn list_at<'a>(v: &'a Json, path: &str, limit: usize) -> Result<&'a [Json]> {
    match v {
        Json::Array(items) if items.len() > limit => Err(LoadError::at(
            path,
            format!("too many items (at most {limit})"),
        )),
        Json::Array(items) => Ok(items),
        _ => Err(wrong_type(path, "a list", v)),
    }
}
