//! The client side of `dsplay sim --server URL WORDS…`: one POST to `/dsplay/v1/sim`.

use serde_json::Value;

/// A `sim` command's output as the server ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOutput {
    /// (to stdout?, text) in the order produced.
    pub chunks: Vec<(bool, String)>,
    /// Whether the command succeeded.
    pub success: bool,
}

/// Runs `script` (one `sim …` command) on the server at `url`.
pub fn run_sim(url: &str, script: &str) -> Result<SimOutput, String> {
    let endpoint = format!("{}/dsplay/v1/sim", url.trim_end_matches('/'));
    let body: Value = match ureq::post(&endpoint)
        .set("Content-Type", "text/plain")
        .send_string(script)
    {
        Ok(response) => response.into_json().map_err(|e| e.to_string())?,
        Err(ureq::Error::Status(_, response)) => {
            let status: Value = response.into_json().map_err(|e| e.to_string())?;
            return Err(status["message"]
                .as_str()
                .unwrap_or("request failed")
                .to_string());
        }
        Err(e) => return Err(format!("cannot reach {url}: {e}")),
    };
    let chunks = body["chunks"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            (
                c["stream"] == "stdout",
                c["text"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    Ok(SimOutput {
        chunks,
        success: body["success"].as_bool().unwrap_or(false),
    })
}
