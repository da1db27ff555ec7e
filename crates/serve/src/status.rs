//! `metav1.Status` bodies: the API server's error responses, which kubectl turns into its
//! `Error from server (Reason): …` and `The Kind "name" is invalid: …` lines.
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go` (`NewNotFound`,
//! `NewAlreadyExists`, `NewInvalid`, `NewBadRequest`).

use dsplay_sim::ApiError;
use serde_json::{json, Value};

/// An HTTP status code and a JSON body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// HTTP status code.
    pub code: u16,
    /// Content type of `body`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    /// 200 with a JSON body.
    pub fn json(value: &Value) -> Reply {
        Reply::json_with(200, "application/json", value)
    }

    /// A JSON body with a status code and content type.
    pub fn json_with(code: u16, content_type: &'static str, value: &Value) -> Reply {
        Reply {
            code,
            content_type,
            body: serde_json::to_vec(value).unwrap_or_default(),
        }
    }
}

/// A `Status` failure with `reason`, `message` and HTTP `code`.
pub fn failure(code: u16, reason: &str, message: &str, details: Value) -> Reply {
    Reply::json_with(
        code,
        "application/json",
        &json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": message,
            "reason": reason,
            "details": details,
            "code": code,
        }),
    )
}

/// 400 BadRequest.
pub fn bad_request(message: &str) -> Reply {
    failure(400, "BadRequest", message, json!({}))
}

/// 404 for a path nothing serves.
pub fn page_not_found() -> Reply {
    failure(
        404,
        "NotFound",
        "the server could not find the requested resource",
        json!({}),
    )
}

/// 405 for a verb a resource does not support.
pub fn method_not_allowed(method: &str) -> Reply {
    failure(
        405,
        "MethodNotAllowed",
        &format!("the server does not allow this method on the requested resource ({method})"),
        json!({}),
    )
}

/// The Status of a simulated API server error.
pub fn from_api_error(error: &ApiError) -> Reply {
    match error {
        ApiError::NotFound { kind, name } => failure(
            404,
            "NotFound",
            &error.to_string(),
            json!({"name": name, "group": kind.group(), "kind": kind.plural()}),
        ),
        ApiError::AlreadyExists { kind, name } => failure(
            409,
            "AlreadyExists",
            &error.to_string(),
            json!({"name": name, "group": kind.group(), "kind": kind.plural()}),
        ),
        ApiError::Invalid { kind, name, errors } => {
            let causes: Vec<Value> = errors
                .iter()
                .map(|e| json!({"reason": "FieldValueInvalid", "message": e.message, "field": e.path}))
                .collect();
            failure(
                422,
                "Invalid",
                &error.to_string(),
                json!({"name": name, "group": kind.group(), "kind": kind.name(), "causes": causes}),
            )
        }
        ApiError::BadRequest(message) => bad_request(message),
        ApiError::Forbidden(message) | ApiError::OverCapacity(message) => {
            failure(403, "Forbidden", message, json!({}))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dsplay_api::Kind;

    #[test]
    fn not_found_carries_the_api_server_message() {
        let reply = from_api_error(&ApiError::NotFound {
            kind: Kind::DaemonSet,
            name: "nope".into(),
        });
        let body: Value = serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(reply.code, 404);
        assert_eq!(body["message"], "daemonsets.apps \"nope\" not found");
        assert_eq!(body["reason"], "NotFound");
    }
}
