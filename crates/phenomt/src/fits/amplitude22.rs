//! Fits of the (2,2) amplitude |h22| (geometric, distance 1): the three inspiral collocation
//! values (t = −2000, −250, −150 M), the merger collocation value (t = −25 M), the peak value
//! and the ringdown coefficient c3 (docs/imrphenomt.md §6).
//!
//! LAL: `LALSimIMRPhenomTHM_fits.c`; Estellés et al., arXiv:2012.11923.

use super::{FitArgs, FitInputs};
use crate::scalar::Real;

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -2000.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.00006480771730217768 * (dchi * dchi)
        - dchi
            * 0.3543965558027252
            * delta
            * (T::from(1.0) - eta * 2.463526130684083)
            * p.eta_pow(3)
        + dchi
            * 0.01879295038873938
            * delta
            * (T::from(1.0) - eta * 5.236796607517272)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.1472653807120573 - eta * eta * 1.9636752493349356
            + p.eta_pow(3) * 14.177521724634461
            - p.eta_pow(4) * 48.94620901701877
            + p.eta_pow(5) * 63.83730899015984)
        + eta
            * (T::from(0.8493442097893826) - eta * 13.211067914003836
                + eta * eta * 311.99021467938235
                - p.eta_pow(3) * 4731.025904601601
                + p.eta_pow(4) * 44821.93042533854
                - p.eta_pow(5) * 264474.1374080295
                + p.eta_pow(6) * 943246.2317701122
                - p.eta_pow(7) * 1.8588135904328802e6
                + p.eta_pow(8) * 1.5524778581809246e6)
        + (eta * 0.04902976057622393 - eta * eta * 1.0152511131279736
            + p.eta_pow(3) * 8.286289152216145
            - p.eta_pow(4) * 30.19775956110767
            + p.eta_pow(5) * 40.670065442751955)
            * (s * s)
        + (eta * 0.04780630695082567 - eta * eta * 1.2177827888317065
            + p.eta_pow(3) * 11.505675146308567
            - p.eta_pow(4) * 46.733420749352135
            + p.eta_pow(5) * 68.40821782168776)
            * p.s_pow(3)
}

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -250.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP2_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp2_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.000100027278976821 * (dchi * dchi)
        - dchi
            * 0.7578403155712378
            * delta
            * (T::from(1.0) - eta * 2.056456271350877)
            * p.eta_pow(3)
        - dchi
            * 0.14126282637778914
            * delta
            * (T::from(1.0) - eta * 2.5840771007494916)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.2331970217833686 - eta * eta * 1.5473968380422929
            + p.eta_pow(3) * 5.973401506474942
            - p.eta_pow(4) * 9.110484789161045)
        + eta
            * (T::from(0.9904613241626621) - eta * 6.708006572605403
                + eta * eta * 127.40270095439482
                - p.eta_pow(3) * 1723.355339710798
                + p.eta_pow(4) * 15430.10086310527
                - p.eta_pow(5) * 88744.26044058547
                + p.eta_pow(6) * 313650.01696201024
                - p.eta_pow(7) * 617887.8122937253
                + p.eta_pow(8) * 518220.9267888211)
        + (eta * 0.08934817374146888 - eta * eta * 0.8887847358339216
            + p.eta_pow(3) * 3.7233864099350784
            - p.eta_pow(4) * 5.814765403882651)
            * (s * s)
        + (eta * 0.04471990627820145 - eta * eta * 0.642458648615624
            + p.eta_pow(3) * 3.393481171493086
            - p.eta_pow(4) * 6.092083983738554)
            * p.s_pow(3)
}

/// Inspiral collocation value of |h22| (geometric, distance 1) at t = -150.
///
/// LAL: `IMRPhenomT_Inspiral_Amp_CP3_22`; Estellés et al., arXiv:2012.11923.
pub fn inspiral_amp_cp3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0002459376633671657 * (dchi * dchi)
        - dchi
            * 0.8794763631110696
            * delta
            * (T::from(1.0) - eta * 2.0751630535350096)
            * p.eta_pow(3)
        - dchi
            * 0.3319387797134261
            * delta
            * (T::from(1.0) - eta * 3.1838055629892184)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.23505507416274007 - eta * eta * 1.2449030421324767
            + p.eta_pow(3) * 4.315803728759738
            - p.eta_pow(4) * 6.384257606413192)
        + eta
            * (T::from(1.0208762064809185) - eta * 3.3799457394243957
                + eta * eta * 16.242639717123314
                + p.eta_pow(3) * 299.2297416582362
                - p.eta_pow(4) * 5913.920743907752
                + p.eta_pow(5) * 46388.231537995445
                - p.eta_pow(6) * 192261.0498470111
                + p.eta_pow(7) * 413750.14250475995
                - p.eta_pow(8) * 364403.84935539874)
        + (eta * 0.09630827896641526 - eta * eta * 0.7915321134872877
            + p.eta_pow(3) * 2.86907420250287
            - p.eta_pow(4) * 4.038995403653199)
            * (s * s)
        + (eta * 0.07395420485618898 - eta * eta * 1.0289224187583748
            + p.eta_pow(3) * 5.275845823734598
            - p.eta_pow(4) * 9.206158044409037)
            * p.s_pow(3)
}

/// Merger collocation value of |h22| at t = −25.
///
/// LAL: `IMRPhenomT_Merger_Amp_CP1_22`; Estellés et al., arXiv:2012.11923.
pub fn merger_amp_cp1_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0004059354652663733 * (dchi * dchi)
        - dchi
            * 0.9382383412276684
            * delta
            * (T::from(1.0) - eta * 2.509151362054917)
            * p.eta_pow(3)
        - dchi
            * 0.6560748977864668
            * delta
            * (T::from(1.0) - eta * 3.426294113321932)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.23465398091766254 - eta * eta * 1.3398914201113978
            + p.eta_pow(3) * 5.9073801933446495
            - p.eta_pow(4) * 10.84221896204708)
        + eta
            * (T::from(1.2946032382158479) - eta * 3.3343035556341816
                + eta * eta * 91.6430240976277
                - p.eta_pow(3) * 1687.6195123629968
                + p.eta_pow(4) * 19726.50907350641
                - p.eta_pow(5) * 140798.18973779568
                + p.eta_pow(6) * 594095.3303894227
                - p.eta_pow(7) * 1.358657562562124e6
                + p.eta_pow(8) * 1.2958912179017465e6)
        + (eta * 0.03174875260265387 + eta * eta * 0.23082150180902375
            - p.eta_pow(3) * 1.9901867982613048
            + p.eta_pow(4) * 4.009389679757772)
            * (s * s)
        + (eta * -0.04033221614773138 + eta * eta * 0.8426888041517518
            - p.eta_pow(3) * 4.742283264846479
            + p.eta_pow(4) * 9.059923021547936)
            * p.s_pow(3)
}

/// Peak value of |h22| (at t = 0).
///
/// LAL: `IMRPhenomT_PeakAmp_22`; Estellés et al., arXiv:2012.11923.
pub fn peak_amp_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs {
        eta,
        s,
        dchi,
        delta,
    } = p.inputs();
    eta * 0.0017885007700308166 * (dchi * dchi)
        - dchi
            * 0.5846280668038513
            * delta
            * (T::from(1.0) - eta * 4.879882766464646)
            * p.eta_pow(3)
        - dchi
            * 0.874161608112943
            * delta
            * (T::from(1.0) - eta * 1.690095043235707)
            * s
            * p.eta_pow(3)
        + s * (eta * 0.203557188205307 - eta * eta * 2.4368458739010563
            + p.eta_pow(3) * 12.206344183078137
            - p.eta_pow(4) * 23.417979354674692)
        + eta
            * (T::from(1.4701266133411792) - eta * 1.387711607537906
                + eta * eta * 25.641251409467607
                - p.eta_pow(3) * 186.013359336165
                + p.eta_pow(4) * 801.3039484150348
                - p.eta_pow(5) * 1893.8181854645718
                + p.eta_pow(6) * 1946.531703997353)
        + (eta * -0.0018659293826992745 - eta * eta * 0.1888206507658455
            + p.eta_pow(3) * 1.4677324802664107
            - p.eta_pow(4) * 1.4019283350536489)
            * (s * s)
        + (eta * -0.14699838946027494 + eta * eta * 2.6186847787143837
            - p.eta_pow(3) * 15.574381075605208
            + p.eta_pow(4) * 31.239292792717016)
            * p.s_pow(3)
}

/// Ringdown amplitude coefficient c3 of the 22 mode (uses η and Ŝ only).
///
/// LAL: `IMRPhenomT_RD_Amp_C3_22`; Estellés et al., arXiv:2012.11923.
pub fn rd_amp_c3_22<T: Real>(p: &impl FitArgs<T>) -> T {
    let FitInputs { eta, s, .. } = p.inputs();
    T::from(-0.48053994718185694)
        + eta * 0.7023672141561462
        + s * (T::from(-0.3597773028596323) + eta * 1.4330280386796503
            - eta * eta * 3.239121799338561)
        - eta * eta * 0.1993836305574211
        + (T::from(-0.2651107472061685) + eta * 1.6433443489711386 - eta * eta * 2.757772023954491)
            * (s * s)
        + (T::from(-0.01973537883495192) - eta * 0.2410762147438714
            + eta * eta * 2.7315015976869756)
            * p.s_pow(3)
}
