//! The posterior's source-frame columns against bilby's conversion
//! (`generate_source_frame_parameters`, Planck15 through astropy; fixture from
//! tools/make_source_frame_fixture.py).

use tdpe::run::derived::{source_frame, SOURCE_FRAME};
use tdpe_posterior::cosmology::Cosmology;
use tdpe_signal::{BbhParameters, Parameter};

#[test]
fn source_frame_columns_match_bilby() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/source_frame.json"
    ))
    .unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
    let points = fixture["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    let cosmology = Cosmology::planck15();
    for point in points {
        let value = |name: &str| point[name].as_f64().unwrap();
        let mut theta = BbhParameters::gw150914_like().to_array();
        theta[Parameter::ChirpMass] = value("chirp_mass");
        theta[Parameter::MassRatio] = value("mass_ratio");
        theta[Parameter::LuminosityDistance] = value("luminosity_distance");
        let ours = source_frame(&theta, &cosmology).unwrap();
        for (name, ours) in SOURCE_FRAME.iter().zip(ours) {
            let bilby = value(name);
            // astropy's z_at_value stops at a relative tolerance of ~1e-8.
            assert!(
                (ours - bilby).abs() <= 1e-7 * bilby.abs(),
                "{name} at D_L = {}: ours {ours}, bilby {bilby}",
                value("luminosity_distance")
            );
        }
    }
    let mut theta = BbhParameters::gw150914_like().to_array();
    theta[Parameter::LuminosityDistance] = -1.0;
    let error = source_frame(&theta, &cosmology).unwrap_err().to_string();
    assert!(error.contains("luminosity_distance = -1"), "{error}");
}
