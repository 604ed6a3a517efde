//! Parameter-space fits of IMRPhenomT (LALSimIMRPhenomTHM_fits.c, LALSimIMRPhenomXUtilities.c).
