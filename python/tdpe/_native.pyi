"""Type stubs of tdpe's Rust extension module (see the docstrings there for units)."""

from os import PathLike
from typing import Any, Mapping, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
PARAMETER_NAMES: list[str]

Points = Mapping[str, Union[float, npt.ArrayLike]]
Overrides = Mapping[str, Any]

class Likelihood:
    def __init__(self, config: str = "default", overrides: Optional[Overrides] = None) -> None: ...
    def log_likelihood_ratio(
        self, parameters: Points, method: str = "relative_binning"
    ) -> Union[float, npt.NDArray[np.float64]]: ...
    def log_likelihood_ratio_and_gradient(
        self, parameters: Points
    ) -> tuple[Union[float, npt.NDArray[np.float64]], npt.NDArray[np.float64]]: ...
    def noise_log_likelihood(self) -> float: ...
    @property
    def parameter_names(self) -> list[str]: ...
    @property
    def fiducial(self) -> dict[str, float]: ...
    @property
    def injection(self) -> Optional[dict[str, float]]: ...
    @property
    def detectors(self) -> list[str]: ...
    @property
    def trigger_time(self) -> float: ...
    @property
    def prior_text(self) -> str: ...
    @property
    def strain(self) -> dict[str, npt.NDArray[np.float64]]: ...
    @property
    def psds(self) -> dict[str, tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]: ...
    @property
    def start_time(self) -> float: ...
    @property
    def sampling_frequency(self) -> float: ...
    @staticmethod
    def default_prior_text() -> str: ...
    @property
    def node_counts(self) -> list[int]: ...

def waveform(
    mass_1: float,
    mass_2: float,
    luminosity_distance: float,
    *,
    chi_1: float = 0.0,
    chi_2: float = 0.0,
    spin_1x: float = 0.0,
    spin_1y: float = 0.0,
    spin_2x: float = 0.0,
    spin_2y: float = 0.0,
    theta_jn: float = 0.0,
    phase: float = 0.0,
    sampling_frequency: float = 4096.0,
    minimum_frequency: float = 20.0,
    reference_frequency: Optional[float] = None,
    approximant: str = "IMRPhenomT",
    prec_version: Optional[int] = None,
    mode_array: Optional[Sequence[Sequence[int]]] = None,
    modes: bool = False,
    times: Optional[npt.ArrayLike] = None,
) -> dict[Any, npt.NDArray[Any]]: ...
def run(
    config: str = "default",
    outdir: Union[str, PathLike[str]] = "tdpe-out",
    overrides: Optional[Overrides] = None,
    progress: bool = True,
) -> str: ...
def default_config() -> str: ...
def default_sampler_settings() -> dict[str, Any]: ...
def antenna_response(
    name: str, ra: float, dec: float, psi: float, geocent_time: float
) -> tuple[float, float]: ...
def time_delay_from_geocenter(name: str, ra: float, dec: float, geocent_time: float) -> float: ...
