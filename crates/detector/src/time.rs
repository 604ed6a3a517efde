//! GPS time, leap seconds, GPS → UTC and Greenwich mean sidereal time.
//!
//! Everything here reproduces LALSuite bit for bit where possible:
//! - leap-second table: `lal/lib/date/XLALLeapSeconds.h`;
//! - GPS → UTC: `XLALGPSToUTC` (`lal/lib/date/XLALCivilTime.c`);
//! - Julian day: `XLALConvertCivilTimeToJD` (same file; valid for 1900-03 … 2100-02);
//! - sidereal time: `XLALGreenwichSiderealTime` with zero equation of the equinoxes, i.e.
//!   `XLALGreenwichMeanSiderealTime` (`lal/lib/date/XLALTime.c`, after NOVAS-C / Aoki et al. 1982).
//!
//! The sidereal time is returned in radians and is **not** reduced modulo 2π (LAL's convention).

use crate::error::DetectorError;

/// GPS epoch (1980-01-06 00:00:00 UTC) in Unix seconds (`XLAL_EPOCH_UNIX_GPS`).
const EPOCH_UNIX_GPS: i64 = 315_964_800;
/// TAI − UTC at the GPS epoch, s (`XLAL_EPOCH_GPS_TAI_UTC`).
const EPOCH_GPS_TAI_UTC: i64 = 19;
/// Julian day of J2000.0 (`XLAL_EPOCH_J2000_0_JD`).
const EPOCH_J2000_0_JD: f64 = 2_451_545.0;

/// Leap-second table (GPS second at which TAI − UTC takes the new value, TAI − UTC in s), from
/// LAL's `XLALLeapSeconds.h`. Update this table when the IERS announces a new leap second.
const LEAP_SECONDS: [(i64, i64); 19] = [
    (-43_200, 19),       // 1980-Jan-01
    (46_828_800, 20),    // 1981-Jul-01
    (78_364_801, 21),    // 1982-Jul-01
    (109_900_802, 22),   // 1983-Jul-01
    (173_059_203, 23),   // 1985-Jul-01
    (252_028_804, 24),   // 1988-Jan-01
    (315_187_205, 25),   // 1990-Jan-01
    (346_723_206, 26),   // 1991-Jan-01
    (393_984_007, 27),   // 1992-Jul-01
    (425_520_008, 28),   // 1993-Jul-01
    (457_056_009, 29),   // 1994-Jul-01
    (504_489_610, 30),   // 1996-Jan-01
    (551_750_411, 31),   // 1997-Jul-01
    (599_184_012, 32),   // 1999-Jan-01
    (820_108_813, 33),   // 2006-Jan-01
    (914_803_214, 34),   // 2009-Jan-01
    (1_025_136_015, 35), // 2012-Jul-01
    (1_119_744_016, 36), // 2015-Jul-01
    (1_167_264_017, 37), // 2017-Jan-01
];

/// Smallest GPS second covered by the leap-second table.
pub const GPS_MIN_SECONDS: i64 = -43_200;
/// Largest GPS second accepted (LAL stores GPS seconds as a 32-bit integer).
pub const GPS_MAX_SECONDS: i64 = i32::MAX as i64;

/// A GPS time split into integer seconds and nanoseconds (0 ≤ ns < 1e9), like LAL's
/// `LIGOTimeGPS`. A bare f64 GPS time has only ~0.24 µs resolution near 1.1e9 s; keep
/// analysis times relative to an epoch stored as a `GpsTime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GpsTime {
    /// Integer GPS seconds.
    pub seconds: i64,
    /// Nanoseconds, in [0, 1e9).
    pub nanoseconds: i64,
}

impl GpsTime {
    /// From integer seconds and nanoseconds (normalised so that 0 ≤ ns < 1e9).
    pub fn new(seconds: i64, nanoseconds: i64) -> Self {
        let carry = nanoseconds.div_euclid(1_000_000_000);
        Self {
            seconds: seconds + carry,
            nanoseconds: nanoseconds.rem_euclid(1_000_000_000),
        }
    }

    /// From a GPS time in seconds, rounded to the nearest nanosecond (as `XLALGPSSetREAL8`).
    pub fn from_f64(gps: f64) -> Result<Self, DetectorError> {
        if !gps.is_finite() {
            return Err(DetectorError::NonFinite {
                name: "gps",
                value: gps,
            });
        }
        let s = gps.floor();
        if s < GPS_MIN_SECONDS as f64 || s > GPS_MAX_SECONDS as f64 {
            return Err(out_of_range(gps));
        }
        let ns = ((gps - s) * 1e9).round() as i64;
        Ok(Self::new(s as i64, ns))
    }

    /// The time in GPS seconds as a single f64 (loses precision below ~0.2 µs).
    pub fn as_f64(&self) -> f64 {
        self.seconds as f64 + self.nanoseconds as f64 * 1e-9
    }

    /// This time plus `offset` seconds (rounded to the nearest nanosecond).
    pub fn add_seconds(&self, offset: f64) -> Self {
        let whole = offset.floor();
        let ns = ((offset - whole) * 1e9).round() as i64;
        Self::new(self.seconds + whole as i64, self.nanoseconds + ns)
    }

    /// `self − other` in seconds, exact to the nanosecond before the final f64 rounding.
    pub fn seconds_since(&self, other: &GpsTime) -> f64 {
        (self.seconds - other.seconds) as f64 + (self.nanoseconds - other.nanoseconds) as f64 * 1e-9
    }
}

fn out_of_range(gps: f64) -> DetectorError {
    DetectorError::GpsOutOfRange {
        gps,
        min: GPS_MIN_SECONDS as f64,
        max: GPS_MAX_SECONDS as f64,
    }
}

fn check_range(gps_seconds: i64) -> Result<(), DetectorError> {
    if !(GPS_MIN_SECONDS..=GPS_MAX_SECONDS).contains(&gps_seconds) {
        return Err(out_of_range(gps_seconds as f64));
    }
    Ok(())
}

/// TAI − UTC (s) in effect at a GPS second (`XLALLeapSeconds`).
pub fn leap_seconds(gps_seconds: i64) -> Result<i64, DetectorError> {
    check_range(gps_seconds)?;
    let mut taiutc = LEAP_SECONDS[0].1;
    for &(gps, value) in LEAP_SECONDS.iter().skip(1) {
        if gps_seconds < gps {
            break;
        }
        taiutc = value;
    }
    Ok(taiutc)
}

/// Change of TAI − UTC at exactly this GPS second (+1 during an inserted leap second).
fn delta_tai_utc(gps_seconds: i64) -> i64 {
    for w in LEAP_SECONDS.windows(2) {
        if gps_seconds == w[1].0 {
            return w[1].1 - w[0].1;
        }
    }
    0
}

/// A broken-down UTC time (the fields of C's `struct tm` that LAL uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UtcTime {
    /// Calendar year, e.g. 2015.
    pub year: i64,
    /// Month, 1–12.
    pub month: i64,
    /// Day of the month, 1–31.
    pub day: i64,
    /// Hour, 0–23.
    pub hour: i64,
    /// Minute, 0–59.
    pub minute: i64,
    /// Second, 0–60 (60 during an inserted leap second).
    pub second: i64,
}

impl UtcTime {
    /// Julian day of this civil time, as `XLALConvertCivilTimeToJD` (integer-second accuracy;
    /// the formula is valid from 1900 March to 2100 February).
    pub fn julian_day(&self) -> f64 {
        let (y, m, d) = (self.year, self.month, self.day);
        let sec = self.second + 60 * (self.minute + 60 * self.hour);
        // C integer division; every operand is positive here, so `/` truncates like C.
        let jd = 367 * y - 7 * (y + (m + 9) / 12) / 4 + 275 * m / 9 + d + 1_721_014;
        jd as f64 + (sec as f64 / 86_400.0 - 0.5)
    }
}

/// Civil date from days since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// GPS seconds → UTC, as `XLALGPSToUTC` (integer seconds; leap seconds give second = 60).
pub fn gps_to_utc(gps_seconds: i64) -> Result<UtcTime, DetectorError> {
    let leap = leap_seconds(gps_seconds)?;
    let unix = gps_seconds - leap + EPOCH_GPS_TAI_UTC + EPOCH_UNIX_GPS;
    let days = unix.div_euclid(86_400);
    let sod = unix.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let mut utc = UtcTime {
        year,
        month,
        day,
        hour: sod / 3600,
        minute: (sod % 3600) / 60,
        second: sod % 60,
    };
    if delta_tai_utc(gps_seconds) > 0 {
        utc.second += 1;
    }
    Ok(utc)
}

/// Greenwich mean sidereal time (rad, **not** reduced mod 2π) at a GPS time, exactly as
/// `XLALGreenwichMeanSiderealTime` = `XLALGreenwichSiderealTime(gps, 0)`.
///
/// GMST in sidereal seconds = 67310.54841 + (876600 h + 8640184.812866 s) T + 0.093104 T²
/// − 6.2e-6 T³, T in Julian centuries of UT1 (≈ UTC) since J2000.0 (Aoki et al. 1982, as in
/// NOVAS-C); 2π rad per 86400 sidereal s. Integer seconds and nanoseconds are kept apart for
/// precision, as LAL does.
pub fn greenwich_mean_sidereal_time(gps: GpsTime) -> Result<f64, DetectorError> {
    let utc = gps_to_utc(gps.seconds)?;
    let julian_day = utc.julian_day();
    let t_hi = (julian_day - EPOCH_J2000_0_JD) / 36_525.0;
    let t_lo = gps.nanoseconds as f64 / (1e9 * 36_525.0 * 86_400.0);
    let t = t_hi + t_lo;
    let mut sidereal_time = 0.0 + (-6.2e-6 * t + 0.093104) * t * t + 67_310.548_41;
    sidereal_time += 8_640_184.812_866 * t_lo;
    sidereal_time += 3_155_760_000.0 * t_lo;
    sidereal_time += 8_640_184.812_866 * t_hi;
    sidereal_time += 3_155_760_000.0 * t_hi;
    Ok(sidereal_time * std::f64::consts::PI / 43_200.0)
}

/// Rate of change of the GMST, rad per (SI) second: dGMST/dt = 2π (1 + 8640184.812866 /
/// 3155760000) / 86400 (first-order term of the formula above).
pub const GMST_RATE_RAD_PER_S: f64 =
    2.0 * std::f64::consts::PI * (1.0 + 8_640_184.812_866 / 3_155_760_000.0) / 86_400.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_of_known_times() {
        // GW150914: 1126259462 = 2015-09-14 09:50:45 UTC.
        let u = gps_to_utc(1_126_259_462).unwrap();
        assert_eq!(
            (u.year, u.month, u.day, u.hour, u.minute, u.second),
            (2015, 9, 14, 9, 50, 45)
        );
        // The leap second at the end of 2016 is 23:59:60.
        let u = gps_to_utc(1_167_264_017).unwrap();
        assert_eq!(
            (u.year, u.month, u.day, u.hour, u.minute, u.second),
            (2016, 12, 31, 23, 59, 60)
        );
        let u = gps_to_utc(1_167_264_018).unwrap();
        assert_eq!(
            (u.year, u.month, u.day, u.hour, u.minute, u.second),
            (2017, 1, 1, 0, 0, 0)
        );
        // GPS epoch.
        let u = gps_to_utc(0).unwrap();
        assert_eq!(
            (u.year, u.month, u.day, u.hour, u.minute, u.second),
            (1980, 1, 6, 0, 0, 0)
        );
        assert_eq!(leap_seconds(1_126_259_462).unwrap(), 36);
    }

    #[test]
    fn out_of_range_gps_is_an_error() {
        assert!(matches!(
            leap_seconds(-50_000),
            Err(DetectorError::GpsOutOfRange { .. })
        ));
        assert!(GpsTime::from_f64(f64::NAN).is_err());
        assert!(greenwich_mean_sidereal_time(GpsTime::new(3_000_000_000, 0)).is_err());
    }

    #[test]
    fn gps_time_arithmetic() {
        let t = GpsTime::from_f64(1_126_259_462.4).unwrap();
        assert_eq!(t.seconds, 1_126_259_462);
        // f64 GPS resolution near 1.1e9 s is ~0.24 µs.
        assert!((t.nanoseconds - 400_000_000).abs() < 300);
        let u = t.add_seconds(-2.7);
        assert!((u.seconds_since(&t) + 2.7).abs() < 1e-12);
    }
}
