FROM x
RUN echo "a <<EOF b"
RUN cat <<- EOF
CMD <<EOF
RUN ["cat", "<<EOF"]
