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
}

impl ApiError {
    /// The reason word kubectl prints in `Error from server (<Reason>): …`, None for Invalid (printed bare).
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            ApiError::NotFound { .. } => Some("NotFound"),
            ApiError::AlreadyExists { .. } => Some("AlreadyExists"),
            ApiError::Invalid { .. } => None,
            ApiError::BadRequest(_) => Some("BadRequest"),
            ApiError::Forbidden(_) => Some("Forbidden"),
        }
    }
}

/// Result alias for API calls.
pub type ApiResult<T> = Result<T, ApiError>;
