//! Errors the simulated API server returns; the kubectl crate renders them as kubectl text.

use dsplay_api::validation::FieldError;
use dsplay_api::Kind;

/// An API error, shaped like a `metav1.Status` reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// 404: the object does not exist.
    #[error("{} \"{name}\" not found", kind.qualified_plural())]
    NotFound {
        /// Kind asked for.
        kind: Kind,
        /// Name asked for.
        name: String,
    },
    /// 409: create of an existing name.
    #[error("{} \"{name}\" already exists", kind.qualified_plural())]
    AlreadyExists {
        /// Kind.
        kind: Kind,
        /// Name.
        name: String,
    },
    /// 422: validation failed.
    #[error("{}", dsplay_api::validation::format_invalid(kind.name(), name, errors))]
    Invalid {
        /// Kind.
        kind: Kind,
        /// Name.
        name: String,
        /// The causes.
        errors: Vec<FieldError>,
    },
    /// 400: malformed request.
    #[error("{0}")]
    BadRequest(String),
    /// 403 / namespace problems.
    #[error("{0}")]
    Forbidden(String),
    /// 403: the simulated cluster has no room for the object (`crate::capacity`); a controller
    /// tries the create again later.
    #[error("{0}")]
    OverCapacity(String),
}

impl ApiError {
    /// The message the API server puts in its Status, as a Go client (a controller) sees the error:
    /// for Invalid, `Pod "x" is invalid: <cause>` or `… is invalid: [<cause>, <cause>]` without
    /// kubectl's `The ` and `* ` list.
    ///
    /// Upstream: `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go` `NewInvalid`;
    /// `staging/src/k8s.io/apimachinery/pkg/util/errors/errors.go` `aggregate.Error`.
    pub fn server_message(&self) -> String {
        let ApiError::Invalid { kind, name, errors } = self else {
            return self.to_string();
        };
        let qualified = match kind.group() {
            "" => kind.name().to_string(),
            group => format!("{}.{group}", kind.name()),
        };
        let mut causes: Vec<String> = Vec::new();
        for e in errors.iter().map(ToString::to_string) {
            if !causes.contains(&e) {
                causes.push(e);
            }
        }
        let cause = match causes.len() {
            1 => causes.remove(0),
            _ => format!("[{}]", causes.join(", ")),
        };
        format!("{qualified} \"{name}\" is invalid: {cause}")
    }

    /// The reason word kubectl prints in `Error from server (<Reason>): …`, None for Invalid (printed bare).
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            ApiError::NotFound { .. } => Some("NotFound"),
            ApiError::AlreadyExists { .. } => Some("AlreadyExists"),
            ApiError::Invalid { .. } => None,
            ApiError::BadRequest(_) => Some("BadRequest"),
            ApiError::Forbidden(_) | ApiError::OverCapacity(_) => Some("Forbidden"),
        }
    }
}

/// Result alias for API calls.
pub type ApiResult<T> = Result<T, ApiError>;
