//! LAL's physical constants (lal/lib/std/LALConstants.h), exactly as LAL uses them.
//! The set-up depends on their last bits (docs/imrphenomt.md §10.6).

/// Solar mass in kg (`LAL_MSUN_SI`).
pub const MSUN_SI: f64 = 1.988409870698050731911960804878414216e30;
/// Solar mass in seconds, G M☉ / c³ (`LAL_MTSUN_SI`).
pub const MTSUN_SI: f64 = 4.925490947641266978197229498498379006e-6;
/// Solar mass in metres, G M☉ / c² (`LAL_MRSUN_SI`).
pub const MRSUN_SI: f64 = 1.476625038050124729627979840144936351e3;
/// Parsec in metres (`LAL_PC_SI`).
pub const PC_SI: f64 = 3.085677581491367278913937957796471611e16;
/// Megaparsec in metres, `1e6 · LAL_PC_SI`.
pub const MPC_SI: f64 = 1e6 * PC_SI;
/// Euler–Mascheroni constant (`LAL_GAMMA`).
pub const GAMMA_E: f64 = 0.577215664901532860606512090082402431;
